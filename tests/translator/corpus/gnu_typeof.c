/* GNU typeof / __typeof__ of cps calls (not evaluated) and of locals live across calls. */
#include "corpus.h"

static int evaluated;
CPS long big(void) { evaluated++; return 1L << 40; }
CPS double dbl(void) { evaluated++; return 0.5; }

int main(void)
{
    typeof(big()) a = 7;
    __typeof__(dbl()) b = dbl();
    typeof(int[3]) arr = {1, 2, 3};
    typeof(&arr[0]) p = arr;
    big();
    printf("%d %d %ld %g %d %d\n", (int)sizeof a, (int)sizeof b, a, b, p[2], evaluated);
    return 0;
}
