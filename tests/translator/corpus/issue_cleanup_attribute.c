/* __attribute__((cleanup)) on a local of a cps function runs exactly once, at the end
   of its scope (C has no suspension: a cps call must not run it). */
#include "corpus.h"

static int cleanups;
static void release(int **p) { cleanups++; printf("release %d\n", **p); free(*p); }

CPS void pause(void) { }

CPS int work(int n)
{
    int total = 0;
    {
        __attribute__((cleanup(release))) int *p = malloc(sizeof *p);
        *p = n;
        pause();
        total += *p;
        pause();
        printf("in scope, cleanups=%d\n", cleanups);
    }
    printf("after scope, cleanups=%d\n", cleanups);
    return total;
}

int main(void)
{
    int r = work(5);
    r += work(7);
    printf("%d %d\n", r, cleanups);
    return cleanups == 2 ? 0 : 1;
}
