/* 6.10 preprocessing directives written in a cps function that the translator renders with
   its macros expanded (a cps call comes out of a macro): the directives stay in force for the
   rest of the file, and a chain that starts before the function's header and ends inside it
   (bison's yyparse) stays balanced. */
#include "corpus.h"

#define STEP(x) step(x)

CPS int step(int x) { return x + 1; }

#ifdef NOT_DEFINED
CPS int run(int a, int b)
#else
CPS int
run (int a)
#endif
{
    int r = STEP(a);
#define AFTER 100
#if AFTER > 50
    r = STEP(r) * 2;
#else
    r = 0;
#endif
#undef STEP
#define STEP(x) ((x) + 1000)
    return r;
}

int main(void)
{
    printf("%d %d %d\n", run(1), AFTER, STEP(1));
    return 0;
}
