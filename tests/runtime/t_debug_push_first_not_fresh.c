/* Debug runtime: CPC_PUSH_FIRST writes at c[0] without looking, so it is
   for a continuation fresh from cpc_continuation_new; one that already
   holds a frame is caught before its frame is overwritten. */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct start__args { int a0; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *start(cpc_continuation *k)
{
    (void)CPC_POP(k, struct start__args);
    return k;
}

int main(void)
{
    cpc_continuation *k = cpc_continuation_new(2 * sizeof(struct start__args));
    struct start__args *a = CPC_PUSH_FIRST(k, struct start__args);
    a->a0 = 1;
    a->cpc_fn = start;
    a = CPC_PUSH_FIRST(k, struct start__args);      /* not fresh any more */
    CT_OUT("not caught: %d\n", a->a0);
    return 0;
}
