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

/* `cps *lp;` at block scope: implicit int (native: `auto *lp;`) */
#ifdef CORPUS_CPC
#define IMPLICIT cps
#else
#define IMPLICIT auto
#endif

CPS int get_local(void)
{
    IMPLICIT *lp;
    lp = &cell;
    get();
    return *lp * 2;
}

int main(void)
{
    int g = get();
    printf("%d %d %d\n", g, *p + 1, get_local());
    return 0;
}
