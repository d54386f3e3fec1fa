/* GNU local labels (`__label__`) and `_Static_assert` in cps functions that the translator
   renders with their macros expanded (a macro wraps a cps call): Clang's rendering writes the
   label declaration as labels (`out:, again:;`) and the assertion as C23's `static_assert`,
   which C11 spells `_Static_assert`. */
#include "corpus.h"

CPS int seen(int v) { return v; }

#define SEEN(e) seen(e)

CPS int count(int n)
{
    __label__ out, again;
    int s = 0;
    _Static_assert(sizeof(int) >= 2, "int holds a step");
again:
    s += SEEN(n);
    if (--n > 0)
        goto again;
    if (s > 0)
        goto out;
    s = -1;
out:
    return s;
}

CPS int nested(int n)
{
    int s = SEEN(0);
    {
        __label__ done;
        _Static_assert(1, "in a block");
        if (n > 2)
            goto done;
        s = SEEN(10);
    done:
        s += n;
    }
    return s;
}

int main(void)
{
    printf("%d %d %d\n", count(4), nested(1), nested(5));
    return 0;
}
