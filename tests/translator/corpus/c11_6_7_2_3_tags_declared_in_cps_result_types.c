/* 6.7.2.3 tags: the result type of a cps function's prototype or definition declares a
   struct, union or enum tag, or defines one (lemon's `static struct action *Action_sort(struct
   action *);` before any other mention of the struct).  The entry's C prototype has no result
   type: the tag must still be declared at file scope, or the parameter's `struct action` is
   another type, scoped to the prototype, and a definition with its members and enumerators
   is lost. */
#include "corpus.h"

static CPS struct action *sorted(struct action *ap);
CPS union cell *boxed(int x), *unboxed(union cell *c);
CPS struct pair { int a, b; } swapped(struct pair p);

struct action { struct action *next; int index; };
union cell { int i; float f; };

static CPS struct action *sorted(struct action *ap)
{
    if (ap != NULL && ap->next != NULL && ap->index > ap->next->index) {
        struct action *second = ap->next;
        ap->next = sorted(second->next);
        second->next = ap;
        return second;
    }
    return ap;
}

CPS union cell *boxed(int x)
{
    static union cell c;
    c.i = x;
    return unboxed(&c);
}

CPS union cell *unboxed(union cell *c) { return c; }

CPS struct pair swapped(struct pair p)
{
    struct pair q = { p.b, p.a };
    return q;
}

/* defined by the definition's own result type */
CPS enum colour { RED, GREEN = 5, BLUE } pick(int i) { return i ? BLUE : GREEN; }
CPS struct node *first(struct node *n) { return n; }
struct node { int v; };

int main(void)
{
    struct action a = { NULL, 2 }, b = { &a, 7 }, *l = sorted(&b);
    struct pair p = swapped((struct pair){ 1, 2 });
    struct node n = { 4 };
    enum colour c = pick(1);
    printf("%d %d %d %d %d %d %d %d\n", l->index, l->next->index, boxed(9)->i, p.a, p.b,
           first(&n)->v, c, pick(0) + RED);
    return 0;
}
