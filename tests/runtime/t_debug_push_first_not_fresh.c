/* Debug runtime: CPC_PUSH_FIRST writes at c[0] without looking, so it is
   for a continuation fresh from cpc_continuation_new; one that already
   holds a frame is caught before its frame is overwritten. */
#include "cps_test.h"

int main(void)
{
    cpc_continuation *k = ct_with_start_frame();
    struct ct_start_args *a = CPC_PUSH_FIRST(k, struct ct_start_args);  /* not fresh */
    CT_OUT("not caught: %d\n", a->a0);
    return 0;
}
