/* 6.7 declarations: one declaration in a cps body that declares variables and functions
   together (`double starttime, benchtime, dtime();`, sim), with variables initialised by cps
   calls, split by the translator, and with a variable whose address is taken across a call,
   moved to the heap. */
#include "corpus.h"

double dtime(void) { return 1.5; }
int twice(int x) { return 2 * x; }

CPS double step(double x) { return x + 1; }

int main(void)
{
    double starttime, benchtime, dtime();
    double a = step(1), now(void), b = step(a), *p = &b;
    int n = 3, twice(int);
    starttime = dtime();
    benchtime = step(starttime);
    *p += step(0);
    printf("%g %g %g %g %d\n", starttime, step(benchtime), a, *p, twice(n));
    return 0;
}
