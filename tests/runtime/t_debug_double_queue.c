/* Debug runtime: queueing a continuation twice (two cpc_yield on the same
   k) is caught, naming the thread's top frame. */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct twice__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *twice__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct twice__frame_1);
    return k;
}

static cpc_continuation *twice__cps(cpc_continuation *k)
{
    struct twice__frame_1 *cpc_f = CPC_PUSH(k, struct twice__frame_1);
    cpc_f->cpc_fn = twice__resume_1;
    (void)cpc_yield__cps(k);
    return cpc_yield__cps(k);
}
CT_DEFINE_SPAWN0(twice)

int main(void)
{
    twice__spawn();
    cpc_main_loop();
    CT_OUT("not caught\n");
    return 0;
}
