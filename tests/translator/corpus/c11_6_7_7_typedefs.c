/* 6.7.8 type definitions: typedefs of scalars, structs, arrays, function types and
   pointers to cps functions; a block-scope typedef shadowing a file-scope one. */
#include "corpus.h"

typedef int num;
typedef num pair[2];
typedef struct node { num v; struct node *next; } node;
typedef CPS num cps_unary(num);

CPS num inc(num x) { return x + 1; }
CPS num apply(cps_unary *f, num x) { return f(f(x)); }

CPS num walk(node *n)
{
    num s = 0;
    for (; n; n = n->next) {
        typedef long num;
        num big = n->v;
        s += (int)big;
        inc(0);
    }
    return s;
}

int main(void)
{
    pair p = {1, 2};
    node c = {3, 0}, b = {2, &c}, a = {1, &b};
    printf("%d %d %d\n", apply(inc, p[1]), walk(&a), (int)sizeof(pair));
    return 0;
}
