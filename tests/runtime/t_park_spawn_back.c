/* cpc_park: a parked thread leaves the scheduler (the main loop returns
   without it) and its continuation is in the slot; given back with
   cpc_spawn_continuation, it resumes after the park with its frame
   intact -- also in the debug runtime, whose one-shot checks know the
   PARKED state. */
#include "cps_test.h"

static cpc_continuation *slot;

CPC_FRAMES_BEGIN
struct parker__frame { int n; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *parker__resume(cpc_continuation *k)
{
    struct parker__frame *f = CPC_POP(k, struct parker__frame);
    CT_OUT("resumed with n = %d\n", f->n);
    return k;
}

static cpc_continuation *parker__cps(cpc_continuation *k, int n)
{
    struct parker__frame *f = CPC_PUSH(k, struct parker__frame);
    f->n = n;
    f->cpc_fn = parker__resume;
    CT_OUT("parking\n");
    return cpc_park__cps(k, &slot);
}
CT_DEFINE_SPAWN1(parker, int)

int main(void)
{
    parker__spawn(42);
    cpc_main_loop();
    CT_OUT("main loop returned; slot %s\n", slot != NULL ? "set" : "empty");
    cpc_spawn_continuation(slot);
    cpc_main_loop();
    CT_OUT("done\n");
    return 0;
}
