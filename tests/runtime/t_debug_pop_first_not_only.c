/* Debug runtime: CPC_POP_FIRST takes a thread's start frame at c[0]
   without looking, so it is for a continuation holding that frame alone;
   one holding another frame above it is caught before the start frame is
   read from the wrong place. */
#include "cps_test.h"

int main(void)
{
    cpc_continuation *k = ct_with_start_frame();
    struct ct_start_args *a = CPC_PUSH(k, struct ct_start_args);
    a->a0 = 2;
    a->cpc_fn = ct_start_nothing;
    a = CPC_POP_FIRST(k, struct ct_start_args);     /* two frames */
    CT_OUT("not caught: %d\n", a->a0);
    return 0;
}
