/* 6.5.3 unary operators: ++ -- & * + - ~ ! sizeof _Alignof, on cps call results. */
#include "corpus.h"

CPS int id(int x) { return x; }
CPS int *ptr(int *p) { return p; }

int main(void)
{
    int v = 5;
    printf("%d %d %d %d\n", -id(3), +id(3), ~id(3), !id(3));
    int before = *ptr(&v);
    int after = ++*ptr(&v);
    printf("%d %d\n", before, after);
    printf("%d %d\n", (int)sizeof id(1), (int)sizeof(id(1) + 1L));
    printf("%d %d\n", (int)_Alignof(long), (int)_Alignof(char));
    int *p = &*ptr(&v);
    --*p;
    printf("%d %d\n", v, id(!!v));
    return 0;
}
