/* GNU C extended asm whose operands make cps calls: the calls are made first, in order,
   then the asm statement reads the values (an input tied to an output, an output lvalue
   whose index is a call's result, an `asm goto` input).  The templates are empty: what the
   asm computes is the constraints' doing. */
#include "corpus.h"

static int calls;

CPS int f(int x) { calls++; return x; }

CPS int operands(void)
{
    int x = 0, a[4] = { 0 };
    __asm__ volatile("" : "=r"(x) : "0"(f(7)));
    __asm__("" : "=r"(a[f(2)]) : "0"(f(5) + x));
    __asm__ goto("" : : "r"(f(3)) : : done);
    x += 100;
done:
    return x * 100 + a[2];
}

int main(void)
{
    int r = operands();
    printf("%d %d\n", r, calls);
    return 0;
}
