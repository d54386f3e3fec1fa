/* cpc_wait from a detached thread is misuse: clear message, abort. */
#include "cps_test.h"

static cpc_condvar *cv;

CPC_FRAMES_BEGIN
struct detached__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *detached__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct detached__frame_1);
    return cpc_wait__cps(k, cv, -1, 0);
}
/* cps void detached(void) { cpc_detach(); cpc_wait(cv); } */
static cpc_continuation *detached__cps(cpc_continuation *k)
{
    struct detached__frame_1 *cpc_f = CPC_PUSH(k, struct detached__frame_1);
    cpc_f->cpc_fn = detached__resume_1;
    return cpc_link__cps(k, cpc_default_threadpool);
}
CT_DEFINE_SPAWN0(detached)

int main(void)
{
    cv = cpc_condvar_get();
    detached__spawn();
    cpc_main_loop();
    CT_OUT("not caught\n");
    return 0;
}
