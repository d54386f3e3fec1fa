/* User names that look like generated ones: locals cpc_k and cpc_resume, a struct
   t__frame beside a cps function t, a function f__cps. */
#include "corpus.h"

struct t__frame { int a; };
static int f__cps(int x) { return x + 1; }
static int t__body = 5;

CPS void pause(void) { }

CPS int t(int n)
{
    int cpc_k = n, cpc_resume = 2 * n;
    struct t__frame fr = {n};
    pause();
    return cpc_k + cpc_resume + fr.a + f__cps(0) + t__body;
}

int main(void)
{
    printf("%d\n", t(3));
    return 0;
}
