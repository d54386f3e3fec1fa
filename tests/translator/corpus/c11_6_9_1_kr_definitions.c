/* 6.9.1 function definitions in the old (K&R) style, native and cps, with default
   argument promotions of char/short/float parameters.  corpus-flags: -Wno-old-style-definition */
#include "corpus.h"

CPS int add(a, b)
    int a;
    int b;
{
    return a + b;
}

CPS double scale(c, s, f)
    char c;
    short s;
    float f;
{
    return c + s * f;
}

static long native_kr(x) long x; { return x * 2; }

int main(void)
{
    printf("%d %g %ld\n", add(2, 3), scale('A', 2, 1.5f), native_kr(21));
    return 0;
}
