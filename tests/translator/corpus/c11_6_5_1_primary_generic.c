/* 6.5.1 primary expressions and 6.5.1.1 _Generic selection, controlling expression and
   associations involving cps calls. */
#include "corpus.h"

#define KIND(x) _Generic((x), int: "int", long: "long", double: "double", \
                         char *: "string", default: "other")

CPS int i(void) { return 1; }
CPS double d(void) { return 2.5; }
CPS int twice(int x) { return 2 * x; }
CPS double half(double x) { return x / 2; }

#define APPLY(x) _Generic((x), int: twice, double: half)(x)

int main(void)
{
    printf("%s %s %s %s\n", KIND(i()), KIND(d()), KIND("s"), KIND(3UL));
    printf("%d %g\n", APPLY(i() + 20), APPLY(d()));
    int v = (((i())));
    printf("%d %d\n", v, _Generic(v, int: i(), default: 0));
    return 0;
}
