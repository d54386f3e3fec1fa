/* Implicit int (C90, accepted by gcc -std=gnu89..gnu11 with a warning): `CPS *p;`
   declares a pointer to int.  corpus-flags: -Wno-implicit-int */
#include "corpus.h"

static int cell = 7;
CPS *p;

CPS int get(void)
{
    static *q = &cell;
    p = q;
    return *p;
}

int main(void)
{
    int g = get();
    printf("%d %d\n", g, *p + 1);
    return 0;
}
