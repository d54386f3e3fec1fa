/* Debug runtime: a parked continuation given to the scheduler
   (cpc_spawn_continuation) and also run by its backend
   (cpc_continuation_run) is resumed twice: caught, naming the frame. */
#include "cps_test.h"

static cpc_continuation *slot;

CPC_FRAMES_BEGIN
struct sleeper__frame { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *sleeper__resume(cpc_continuation *k)
{
    (void)CPC_POP(k, struct sleeper__frame);
    return k;
}

static cpc_continuation *sleeper__cps(cpc_continuation *k)
{
    struct sleeper__frame *f = CPC_PUSH(k, struct sleeper__frame);
    f->cpc_fn = sleeper__resume;
    return cpc_park__cps(k, &slot);
}
CT_DEFINE_SPAWN0(sleeper)

int main(void)
{
    sleeper__spawn();
    cpc_main_loop();
    cpc_spawn_continuation(slot);
    cpc_continuation_run(slot);
    CT_OUT("not caught\n");
    return 0;
}
