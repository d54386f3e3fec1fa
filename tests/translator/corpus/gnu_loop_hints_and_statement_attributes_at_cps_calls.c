/* Loop hints (`#pragma GCC unroll`, `#pragma GCC ivdep`) and statement attributes
   (`__attribute__((fallthrough))`) around statements with cps calls: Clang wraps a hinted
   loop in an attributed statement, which the translator refused; gcc warned that it ignored a
   hint whose loop the cps calls had split.  The hints of such loops go; the others stay.
   corpus-flags: -Wall -Werror */
#include "corpus.h"

CPS int f(int x) { return x; }

CPS int hinted(int n)
{
    int s = 0;
#pragma GCC unroll 4
    for (int i = f(0); i < f(n); i++)
        s += i;
#pragma GCC ivdep
    while (f(s) > 100)
        s -= 7;
#pragma GCC unroll 2
    do {
        s += f(1);
    } while (s < f(150));
#pragma GCC unroll 8
    for (int i = 0; i < n; i++)         /* no cps call: the hint stays */
        s ^= i;
    switch (n) {
    case 20:
        s += f(3);
        __attribute__((fallthrough));
    case 2:
        s += f(2);
        break;
    }
    return s;
}

int main(void)
{
    printf("%d %d\n", hinted(20), hinted(2));
    return 0;
}
