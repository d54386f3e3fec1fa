/* 6.9.1p7, 6.5.2.2p6: a function defined in the old style has no prototype; its callers
   pass each argument with the default promotions (char and short as int, float as double)
   and the function converts them to the parameters' declared types.  The functions are
   declared without parameters before the definitions and called both before and after
   them, with and without cps calls of their own.
   corpus-flags: -Wno-old-style-definition -Wno-deprecated-non-prototype */
#include "corpus.h"

typedef char letter;

extern CPS int weigh();
CPS double mix();
CPS int clip();
static CPS long native_looking();

CPS int step(int x) { return x + 1; }

int main(void)
{
    printf("%d %g %d %ld\n", weigh('a', 2, 1.5f, 300), mix(2.5f, 'b'), clip(300), native_looking(7, 3.25f));
    printf("%d %g %d %ld\n", weigh(1, -2, -0.25f, -7), mix(-1.0f, 0), clip(-129), native_looking(-1, 0.5f));
    return 0;
}

/* cps calls: a body with resume points */
CPS int weigh(a, b, x, s)
    letter a;
    char b;
    float x;
    short s;
{
    int r = step(a);
    r += step(b);
    return r + (int)(x * 4) + s + (int)sizeof a + (int)sizeof x;
}

/* no cps call: the entry is the body */
CPS double mix(f, c) float f; char c;
{
    c += 1;
    return f * 2 + c + sizeof f + sizeof c;
}

/* the argument does not fit the parameter: converted by the callee */
CPS int clip(c) signed char c; { return step(c) * 10 + c; }

static CPS long native_looking(n, f) short n; float f; { return n * 100 + (long)(f * 8); }
