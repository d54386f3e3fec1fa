/* 6.5.16 assignment: chains, struct assignment, assignment as a value, through cps
   calls on both sides. */
#include "corpus.h"

struct big { int v[8]; };
CPS int id(int x) { return x; }
CPS int *at(int *a, int i) { return &a[i]; }
CPS struct big fill(int x) { struct big b; for (int i = 0; i < 8; i++) b.v[i] = x + i; return b; }

int main(void)
{
    int a[4] = {0}, x, y, z;
    x = y = z = id(7);
    *at(a, 1) = *at(a, 2) = id(9);
    struct big b, c;
    b = c = fill(id(3));
    int w = (a[3] = id(4)) + 1;
    printf("%d %d %d %d %d %d %d %d %d\n", x, y, z, a[1], a[2], a[3], w, b.v[7], c.v[0]);
    return 0;
}
