/* 6.8.1 labeled statements and 6.8.6.1 goto: forward and backward jumps across cps
   calls, jumps out of nested blocks, a label before a declaration's block. */
#include "corpus.h"

CPS int id(int x) { return x; }

CPS int f(int n)
{
    int i = 0, s = 0;
again:
    s += id(i);
    if (++i < n)
        goto again;
    {
        int j = 0;
    inner:
        if (id(j) > 3)
            goto out;
        j++;
        s += 100;
        goto inner;
    }
out:
    return s;
}

int main(void)
{
    printf("%d %d\n", f(5), f(1));
    return 0;
}
