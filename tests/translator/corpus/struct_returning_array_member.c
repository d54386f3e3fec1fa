/* Arrays wrapped in structs returned by value from cps calls and indexed directly
   (C11 6.2.4p8: a temporary with lifetime until the end of the full expression). */
#include "corpus.h"

struct arr { int v[5]; };
CPS struct arr make(int base) { struct arr a; for (int i = 0; i < 5; i++) a.v[i] = base + i; return a; }

int main(void)
{
    int x = make(10).v[3];
    int y = make(make(1).v[4]).v[0];
    printf("%d %d %d\n", x, y, (int)sizeof(make(0).v));
    return 0;
}
