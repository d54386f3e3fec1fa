/* Debug runtime: CPC_POP_FIRST takes a thread's start frame at c[0]
   without looking, so it is for a continuation holding that frame alone;
   one holding another frame above it is caught before the start frame is
   read from the wrong place. */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct start__args { int a0; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *start(cpc_continuation *k)
{
    return k;
}

int main(void)
{
    cpc_continuation *k = cpc_continuation_new(2 * sizeof(struct start__args));
    struct start__args *a = CPC_PUSH_FIRST(k, struct start__args);
    a->a0 = 1;
    a->cpc_fn = start;
    a = CPC_PUSH(k, struct start__args);
    a->a0 = 2;
    a->cpc_fn = start;
    a = CPC_POP_FIRST(k, struct start__args);       /* two frames */
    CT_OUT("not caught: %d\n", a->a0);
    return 0;
}
