/* corpus-flags: -std=gnu2x */
/* _Bool in a cps function compiled with -std=gnu2x: the front-end (C23) spells the type
   `bool`, which gcc 12 does not know in that mode; frame fields, rendered functions (a cps
   call out of a macro), casts, pointers and arrays of _Bool are written as `_Bool`; `bool`,
   `true` and `false` of <stdbool.h> as well. */
#include <stdbool.h>
#include "corpus.h"

#define TWICE(x) twice(x)

CPS _Bool twice(_Bool b) { return b; }

CPS int flags(int n)
{
    _Bool seen = n > 2;
    _Bool many[3] = { 1, 0, 1 };
    _Bool *p = &many[1];
    const bool k = TWICE(seen) && true;
    *p = TWICE((_Bool)n);
    return seen + k * 2 + many[0] * 4 + many[1] * 8 + (int)sizeof(_Bool) * 16;
}

CPS int plain(int n)
{
    _Bool b = n & 1;
    _Bool c = twice(b);
    return b + 2 * c + 4 * (int)sizeof(b);
}

int main(void)
{
    printf("%d %d %d %d\n", flags(1), flags(5), plain(2), plain(3));
    return 0;
}
