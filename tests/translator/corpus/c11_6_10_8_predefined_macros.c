/* 6.10.8 predefined macro names used in cps functions. */
#include "corpus.h"

CPS int id(int x) { return x; }

CPS void f(void)
{
    id(0);
    printf("%ld %d %d\n", (long)__STDC_VERSION__ >= 201112L, __STDC__, __STDC_HOSTED__);
    printf("%d\n", (int)(sizeof __DATE__ == 12 && sizeof __TIME__ == 9));
}

int main(void)
{
    f();
    return 0;
}
