/* GNU's __real__ and __imag__ are lvalues in their complex variable: a
 * write to a part, or the address of a part kept across a cps call, is a
 * write to (or the address of) the whole variable. */
#include "corpus.h"

CPS double half(double x) { return x / 2; }

CPS _Complex double assign_parts(_Complex double x)
{
    double r = 2.0;
    __real__ x = r * half(__imag__ x);
    __imag__ x = r * half(__real__ x + 1);
    return x;
}

CPS _Complex double update_parts(_Complex double x)
{
    __imag__ x += 1.0;
    half(0);
    ++__real__ x;
    half(0);
    __extension__ __real__ x *= 3;
    half(0);
    return x;
}

CPS _Complex double address_of_a_part(_Complex double x)
{
    double *re = &__real__ x, *im = &(__imag__ x);
    half(0);
    *re = 5.0;
    *im = half(*im);
    return x;
}

int main(void)
{
    _Complex double a = assign_parts(1.0 + 6.0i), b = update_parts(2.0 + 3.0i);
    _Complex double c = address_of_a_part(1.0 + 8.0i);
    printf("%g %g %g %g %g %g\n", __real__ a, __imag__ a, __real__ b, __imag__ b,
           __real__ c, __imag__ c);
    CHECK(__real__ a == 6.0 && __imag__ a == 7.0);
    CHECK(__real__ b == 9.0 && __imag__ b == 4.0);
    CHECK(__real__ c == 5.0 && __imag__ c == 4.0);
    return 0;
}
