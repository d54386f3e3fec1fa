/* 6.10.1 conditional inclusion: #if arithmetic, defined, #elif chains, #ifdef inside a
   cps function body around cps calls. */
#include "corpus.h"

#define LEVEL 3
#define FEATURE

CPS int id(int x) { return x; }

CPS int f(void)
{
    int r = 0;
#if LEVEL > 2 && defined(FEATURE)
    r += id(1);
#elif LEVEL == 2
    r += id(2);
#else
    r += id(4);
#endif
#ifdef MISSING
    r += id(8);
#endif
#ifndef MISSING
    r += id(16);
#endif
#if (1 ? 2 : 0) == 2 && (-1 < 0u) == 0
    r += id(32);
#endif
    return r;
}

int main(void)
{
    printf("%d\n", f());
    return 0;
}
