/* cleanup attribute: several variables in nested scopes, left by return, break and
   goto, with cps calls in between; cleanups run in reverse order of declaration. */
#include "corpus.h"

static void done(int *p) { printf("cleanup %d\n", *p); }
CPS void pause(void) { }

CPS int f(int mode)
{
    __attribute__((cleanup(done))) int a = 1;
    pause();
    for (int i = 0; i < 3; i++) {
        __attribute__((cleanup(done))) int b = 10 + i;
        pause();
        if (mode == 1 && i == 1)
            break;
        if (mode == 2 && i == 1)
            return b;
    }
    {
        __attribute__((cleanup(done))) int c = 100;
        pause();
        if (mode == 3)
            goto out;
        pause();
    }
out:
    return a;
}

int main(void)
{
    for (int m = 0; m < 4; m++)
        printf("-> %d\n", f(m));
    return 0;
}
