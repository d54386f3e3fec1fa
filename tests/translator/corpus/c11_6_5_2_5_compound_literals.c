/* 6.5.2.5 compound literals: scalar, array, struct, nested, at file scope and in blocks,
   modified after a cps call, in a loop (a new object each iteration is not required:
   the same object is reinitialised). */
#include "corpus.h"

struct p { int x, y; };
static int *file_scope = (int[]){1, 2, 3};

CPS int id(int x) { return x; }
CPS int sum(const int *v, int n) { int s = 0; while (n--) s += v[n]; return s; }
CPS struct p mirror(struct p q) { return (struct p){q.y, q.x}; }

int main(void)
{
    int total = 0;
    for (int i = 0; i < 3; i++) {
        int *p = (int[]){i, i + 1, id(i + 2)};
        total += sum(p, 3);
        p[0] = id(100);
        total += p[0];
    }
    struct p q = mirror((struct p){.x = id(1), .y = 2});
    struct p *r = &(struct p){id(5), id(6)};
    id(0);
    r->x += (int){7};
    printf("%d %d %d %d %d %d\n", total, q.x, q.y, r->x, r->y, sum(file_scope, 3));
    const char *s = (const char[]){"literal"};
    printf("%s %d\n", s, id((int){42}));
    return 0;
}
