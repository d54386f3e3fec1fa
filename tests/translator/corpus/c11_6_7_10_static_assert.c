/* 6.7.10 static assertions at file scope, in structs and in cps function bodies. */
#include "corpus.h"
#include <limits.h>

_Static_assert(CHAR_BIT == 8, "bytes");
struct s { int a; _Static_assert(sizeof(int) >= 2, "int"); };

CPS int f(int x)
{
    _Static_assert(sizeof(struct s) == sizeof(int), "layout");
    int y = x * 2;
    _Static_assert(1, "after a declaration");
    return y;
}

int main(void)
{
    printf("%d\n", f(21));
    return 0;
}
