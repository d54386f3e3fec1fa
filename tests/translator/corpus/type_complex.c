/* _Complex arithmetic, parameters, return values and locals across cps calls. */
#include "corpus.h"
#include <complex.h>

CPS double complex cmul(double complex a, double complex b) { return a * b; }
CPS float complex conj_f(float complex z) { return conjf(z); }
CPS long double complex ld(long double complex z) { return z + 1; }

int main(void)
{
    double complex z = 1.0 + 2.0 * I, w = cmul(z, z);
    float complex f = conj_f(3.0f + 4.0f * I);
    long double complex l = ld(2.0L * I);
    printf("%g %g %g %g %Lg %Lg\n", creal(w), cimag(w), crealf(f), cimagf(f), creall(l), cimagl(l));
    return 0;
}
