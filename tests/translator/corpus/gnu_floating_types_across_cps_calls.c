/* The floating types of ISO/IEC TS 18661-3 and GNU C in cps functions: `_Float128` (which
   the front-end knows as `__float128`), `__float128`, `_Float16`, `_Float32`, `_Float64`,
   `long double` and complex types live across cps calls and are cps parameters and
   results. */
#include "corpus.h"

CPS int f(int x) { return x; }

CPS _Float128 third(_Float128 x) { f(0); return x / 3; }

CPS long floats(void)
{
    _Float128 q = 1;
    __float128 g = 2.5Q;
    _Float16 h = 1.5;
    _Float32 s = 0.25f;
    _Float64 d = 2.0;
    long double ld = 1.25L;
    _Complex long double z = 2.0L + 3.0iL;
    f(1);
    q = third(q * 9);
    f(2);
    return (long)(q * 1000) + (long)(g * 2) + (long)(h * 4) + (long)(s * 8) +
           (long)(d * 16) + (long)(ld * 4) + (long)__imag__ z;
}

int main(void)
{
    printf("%ld\n", floats());
    return 0;
}
