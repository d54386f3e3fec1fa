/* 6.5.13-6.5.14: && and || evaluate their right operand only when needed, even when
   both operands are cps calls. */
#include "corpus.h"

static int calls;
CPS int t(int v) { calls++; printf("t(%d) ", v); return v; }

int main(void)
{
    int a = t(0) && t(1);
    int b = t(1) || t(2);
    int c = t(1) && t(0) && t(3);
    int d = t(0) || t(0) || t(4);
    int e = (t(1) && t(2)) || t(5);
    printf("\n%d %d %d %d %d calls=%d\n", a, b, c, d, e, calls);
    if (t(0) && t(9)) return 1;
    while (t(1) && calls < 20) ;
    printf("\ncalls=%d\n", calls);
    return 0;
}
