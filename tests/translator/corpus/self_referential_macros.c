/* A function-like macro named like the cps function it calls, and an
 * object-like macro that names itself: the preprocessor does not expand the
 * inner name again (C11 6.10.3.4p2), nor may the translator when it renders
 * the function with its macros expanded. */
#include "corpus.h"

#define QUOTE_(s) #s
#define QUOTE(s) QUOTE_(s)

static int limit = 10;
#define limit (limit + 1)

CPS int check(const char *type, int align)
{
    printf("%s %d\n", type, align);
    return align;
}
#define check(t) check(QUOTE(t), (int) _Alignof(t))

CPS int twice(int x) { return 2 * x; }
#define twice(x) (twice(x) + limit)

int main(void)
{
    int n = check(char) + check(short) + check(struct { char c; int i; });
    int t = twice(3);
    printf("%d %d\n", n, t);
    CHECK(n == 1 + 2 + 4 && t == 6 + 11);
    return 0;
}
