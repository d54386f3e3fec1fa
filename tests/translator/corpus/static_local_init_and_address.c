/* Static locals of cps functions: initialised once, addresses returned and used after
   later calls; a static array of function pointers to cps functions. */
#include "corpus.h"

CPS int one(void) { return 1; }
CPS int two(void) { return 2; }

CPS int *counter(void)
{
    static int c = 10;
    static CPS int (*fs[])(void) = {one, two};
    c += fs[c % 2]();
    return &c;
}

int main(void)
{
    int *p = counter();
    counter();
    counter();
    printf("%d\n", *p);
    return 0;
}
