/* GNU local labels (`__label__`) open their block, before anything the
 * translator generates there; labels as values and computed gotos to them
 * across cps calls. */
#include "corpus.h"

CPS int id(int v) { return v; }

CPS int pick(int x)
{
    __label__ one, two;
    static void *table[2];
    char note[8] = "local";
    table[0] = &&one;
    table[1] = &&two;
    x = id(x);
    goto *table[x & 1];
one:
    return id(10) + (int) strlen(note);
two:
    {
        __label__ again;
        int n = 0;
    again:
        n = id(n + 1);
        if (n < 3)
            goto again;
        return 20 + n;
    }
}

int main(void)
{
    int a = pick(0), b = pick(1);
    printf("%d %d\n", a, b);
    CHECK(a == 15 && b == 23);
    return 0;
}
