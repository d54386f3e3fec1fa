/* long double arithmetic, parameters, return values and locals across cps calls. */
#include "corpus.h"
#include <float.h>

CPS long double mul(long double a, long double b) { return a * b; }
CPS long double sumsq(int n) { long double s = 0; for (int i = 1; i <= n; i++) s += mul(i, i); return s; }

int main(void)
{
    long double x = 1.0L / 3.0L, y = mul(x, 3.0L);
    printf("%.21Lg %.21Lg %.21Lg\n", x, y, sumsq(10));
    printf("%d\n", LDBL_MANT_DIG);
    return 0;
}
