/* A parameter or local of cps function-pointer type, boxed (its address live across a
   cps call): calls through it stay cps calls. */
#include "corpus.h"

CPS void pause(void) { }
CPS int inc(int x) { pause(); return x + 1; }
CPS int dbl(int x) { pause(); return x * 2; }

static void touch(void *p) { (void)p; }

CPS int apply(CPS int (*p)(int), int v)
{
    touch(&p);
    pause();
    return p(v);
}

CPS int both(int v)
{
    CPS int (*q)(int) = inc;
    CPS int (**qq)(int) = &q;
    pause();
    v = q(v);
    *qq = dbl;
    pause();
    return q(v);
}

int main(void)
{
    printf("%d %d %d\n", apply(inc, 1), apply(dbl, 5), both(10));
    return 0;
}
