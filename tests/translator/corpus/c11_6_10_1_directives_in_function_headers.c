/* 6.10.1 conditional inclusion inside the declarations of cps functions: two headers of one
   definition in two groups, one nested chain continued over two lines (as bison writes
   yyparse), the directives between the declarator and the body, and a chain in the
   parameter list of a prototype. */
#include "corpus.h"

CPS int id(int x) { return x; }

#ifdef NOT_DEFINED
CPS int pick(int a, int b, int c)
#else
#if (defined __STDC__ \
     || defined __cplusplus)
CPS int
pick (int a, int b)
#else
CPS int
pick (a, b)
    int a, b;
#endif
#endif
{
    return id(a) * 10 + id(b);
}

CPS int later(
#if 1
    int x
#else
    long x, long y
#endif
);

CPS int later(int x) { return id(x) + 1; }

int main(void)
{
    printf("%d %d\n", pick(1, 2), later(4));
    return 0;
}
