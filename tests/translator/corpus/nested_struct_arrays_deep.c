/* Deeply nested aggregates: arrays of structs of arrays of unions, designated
   initialisers several levels deep, updated through cps calls. */
#include "corpus.h"

union cell { int i; char c[4]; };
struct row { union cell cells[3]; int n; };
struct grid { struct row rows[2]; const char *name; };

CPS int id(int x) { return x; }
CPS struct grid bump(struct grid g) { g.rows[id(1)].cells[id(2)].i += 100; return g; }

int main(void)
{
    struct grid g = {.rows = {[1] = {.cells = {[2] = {.i = 5}}, .n = 1}, [0].cells[0].c = "ab"},
                     .name = "grid"};
    g = bump(bump(g));
    printf("%s %d %s %d %d\n", g.name, g.rows[1].cells[2].i, g.rows[0].cells[0].c, g.rows[1].n,
           g.rows[0].n);
    return 0;
}
