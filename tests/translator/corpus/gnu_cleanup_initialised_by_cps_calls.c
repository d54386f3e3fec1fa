/* cleanup attribute on a variable whose initialiser is, or holds, a cps call: its cleanup
   runs when its scope is left (end of block, return, goto), even when no other cps call
   follows it there.  Splitting the declaration at the call dropped the attribute, silently. */
#include "corpus.h"

static void done(int *p) { printf("cleanup %d\n", *p); }

CPS int seen(int v) { return v; }

CPS int one(int n)
{
    {
        __attribute__((cleanup(done))) int d = seen(7);
        d += n;
    }
    __attribute__((cleanup(done))) int e = 1 + seen(n), f = seen(100);
    if (n > 2)
        return e + f;
    {
        __attribute__((cleanup(done))) int g = seen(20) * 2;
        if (n == 1)
            goto out;
        g++;
    }
out:
    return e;
}

int main(void)
{
    printf("%d\n", one(1));
    printf("%d\n", one(2));
    printf("%d\n", one(5));
    return 0;
}
