/* Calls to functions declared without a prototype (C11 6.5.2.2p6): default argument
   promotions, native and cps callees.  corpus-flags: -Wno-deprecated-non-prototype */
#include "corpus.h"

CPS int sum3();
static double half();

int main(void)
{
    char c = 3;
    short s = 4;
    printf("%d %g\n", sum3(c, s, 5), half(9.0f));
    return 0;
}

CPS int sum3(int a, int b, int c) { return a + b + c; }
static double half(double x) { return x / 2; }
