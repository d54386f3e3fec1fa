/* 6.7.4 function specifiers: inline (static inline cps functions), _Noreturn natives
   called from cps code. */
#include "corpus.h"

static inline CPS int sq(int x) { return x * x; }
static _Noreturn void leave(int code) { printf("leaving %d\n", code); fflush(stdout); exit(code); }

CPS int check(int v)
{
    if (v > 50)
        leave(3);
    return sq(v);
}

int main(void)
{
    printf("%d %d\n", check(4), check(7));
    check(60);
    return 0;
}
