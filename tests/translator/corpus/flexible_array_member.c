/* Flexible array members: allocated with a cps-computed size, filled across cps calls,
   sizeof, offsetof. */
#include "corpus.h"
#include <stddef.h>

struct vec { size_t n; double items[]; };

CPS size_t want(size_t n) { return n; }

CPS struct vec *build(size_t n)
{
    struct vec *v = malloc(sizeof *v + want(n) * sizeof v->items[0]);
    v->n = n;
    for (size_t i = 0; i < n; i++)
        v->items[i] = want(i) * 1.5;
    return v;
}

int main(void)
{
    struct vec *v = build(5);
    double s = 0;
    for (size_t i = 0; i < v->n; i++) s += v->items[i];
    printf("%g %d %d\n", s, (int)sizeof(struct vec), (int)offsetof(struct vec, items));
    free(v);
    return 0;
}
