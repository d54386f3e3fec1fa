/* GNU C: sizeof and _Alignof of a function designator are 1; applied to a cps function
   (which the generated C declares only through its entry points), in a cps function and in
   native code, with the address of a cps function and a call in typeof beside it. */
#include "corpus.h"

CPS int twice(int x) { return 2 * x; }
CPS void nothing(void) { }

CPS int sizes(int n)
{
    int r = (int)sizeof(twice) + 10 * (int)sizeof nothing + 100 * (int)_Alignof(twice);
    __typeof__(twice(n)) k = twice(n);
    r += 1000 * (int)(sizeof(&twice) == sizeof(void (*)(void))) + 10000 * k;
    return r;
}

int main(void)
{
    printf("%d %d %d\n", sizes(3), (int)sizeof(twice), (int)sizeof(&nothing) > 1);
    return 0;
}
