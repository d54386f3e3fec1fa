/* Debug runtime: a thread that hands its own continuation to the run queue
   while it keeps running (a double resume) is caught, and the message
   names the thread's top frame. */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct racer__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *racer__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct racer__frame_1);
    return k;
}

/* A buggy hand-written cps function: queues k and also returns it. */
static cpc_continuation *racer__cps(cpc_continuation *k)
{
    struct racer__frame_1 *cpc_f = CPC_PUSH(k, struct racer__frame_1);
    cpc_f->cpc_fn = racer__resume_1;
    cpc_spawn_continuation(k);
    return k;
}
CT_DEFINE_SPAWN0(racer)

int main(void)
{
    racer__spawn();
    cpc_main_loop();
    CT_OUT("not caught\n");
    return 0;
}
