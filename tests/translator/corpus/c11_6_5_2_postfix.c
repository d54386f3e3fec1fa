/* 6.5.2 postfix operators: subscripts, calls, members, ++/--, with cps calls as operands. */
#include "corpus.h"

struct s { int a[3]; struct s *next; };

CPS int idx(int i) { return i; }
CPS struct s *get(struct s *p) { return p; }
CPS int *arr(int *p) { return p; }

int main(void)
{
    struct s n2 = {{7, 8, 9}, 0}, n1 = {{4, 5, 6}, &n2};
    int x[4] = {1, 2, 3, 4};
    printf("%d %d %d\n", x[idx(2)], idx(1)[x], arr(x)[idx(3)]);
    printf("%d %d\n", get(&n1)->a[idx(0)], get(&n1)->next->a[2]);
    int k = arr(x)[1]++;
    int m = --get(&n1)->a[1];
    printf("%d %d %d %d\n", k, x[1], m, n1.a[1]);
    (*get(&n2)).a[0] += idx(10);
    printf("%d\n", n2.a[0]);
    return 0;
}
