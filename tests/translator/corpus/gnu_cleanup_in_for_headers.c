/* GNU cleanup attribute on a variable declared in a `for` header of a cps function: when no
   cps call is in its scope (the loop) the C compiler runs the cleanup as it does natively,
   even if the function suspends before or after the loop. */
#include "corpus.h"

static int log_[16], n_log;

static void done(int *p) { log_[n_log++] = *p; }

CPS int step(int x) { return x + 1; }

CPS int loops(int n)
{
    int s = step(n);
    for (int __attribute__((cleanup(done))) i = 0; i < 3; i++)
        s += i;
    for (__attribute__((cleanup(done))) int j = 10, k = 20; j < 12; j++, k++)
        s += j * k;
    s = step(s);
    return s;
}

int main(void)
{
    int r = loops(1);
    printf("%d:", r);
    for (int i = 0; i < n_log; i++)
        printf(" %d", log_[i]);
    printf("\n");
    return 0;
}
