/* 6.5.16 assignment: an expression statement whose lvalue is reached through the result of
   a cps call (`next(p)->prev = q`, a list walk in McCat's vor), with every assignment and
   increment operator, through members, elements and pointers; as the left operand of a
   comma and as the initialisation and the increment of a `for`. */
#include "corpus.h"

struct node { int v; struct node *next, *prev; int a[3]; };

CPS struct node *next(struct node *p) { return p->next; }
CPS int *cell(int *a, int i) { return &a[i]; }
CPS int one(void) { return 1; }

int main(void)
{
    struct node n[3] = {{1}, {2}, {3}};
    n[0].next = &n[1];
    n[1].next = &n[2];
    n[2].next = &n[0];
    next(&n[0])->prev = &n[0];
    CHECK(n[1].prev == &n[0]);
    next(&n[1])->v += 10;
    next(&n[1])->v++;
    --next(&n[2])->v;
    next(&n[0])->a[one()] = 7;
    next(next(&n[0]))->a[2] |= 5;
    *cell(n[0].a, 2) = 9;
    (*cell(n[0].a, 1))++;
    next(&n[0])->next->prev = next(&n[2]);
    printf("%d %d %d %d %d %d %d %d\n", n[0].v, n[1].v, n[2].v, n[1].a[1], n[2].a[2],
           n[0].a[2], n[0].a[1], n[2].prev->v);
    int i, k = (next(&n[2])->v = 40, one());
    for (next(&n[0])->v = 20, i = 0; i < 3; next(&n[i - 1])->a[0] += i)
        i++;
    printf("%d %d %d %d %d %d\n", k, n[0].v, n[1].v, n[0].a[0], n[1].a[0], n[2].a[0]);
    return 0;
}
