/* 6.10.6 / 7.12.2: `#pragma STDC FP_CONTRACT` may only open a block.  Code the translator
   inserts at the start of a cps body (the environment of variables whose address is taken
   across a cps call) goes after it (VersaBench's beamformer). */
#include "corpus.h"

CPS void fill(double *a, int n)
{
    int i;
    for (i = 0; i < n; i++)
        a[i] = i * 0.5;
}

CPS double dot(int n)
{
#pragma STDC FP_CONTRACT OFF
    double a[4], b[4], r = 0;
    int i;
    fill(a, n);
    fill(b, n);
    for (i = 0; i < n; i++) {
#pragma STDC FP_CONTRACT ON
        r += a[i] * b[i];
    }
    return r;
}

CPS double twice(double x)
{
#pragma STDC FP_CONTRACT OFF
#pragma STDC FENV_ACCESS OFF
    double y = x;
    fill(&y, 1);
    return 2 * x + y;
}

int main(void)
{
    printf("%g %g\n", dot(4), twice(1.5));
    return 0;
}
