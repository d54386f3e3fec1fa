/* A variable first assigned inside the arguments of a cps call, and read
 * after the call returns: the assignment happens before the call, so the
 * variable's value must survive it (in every statement form of a call). */
#include "corpus.h"

struct pair { int a, b; };

CPS int twice(int x) { return 2 * x; }
CPS void take(long x) { CHECK(x != 0); }

CPS int statement_form(void)
{
    int i;
    long l;
    take((i = 4096) + 4);
    take(l = 0x7fffffffL + i);
    return i + (int) (l & 0xff);
}

CPS int assign_and_decl_forms(void)
{
    int i, j, k;
    j = twice(i = 21);
    int d = twice(k = 5);
    return i + j + d + k;
}

CPS int nested_and_comma(void)
{
    int i, j, n;
    take(twice((i = 3, j = i + 1)));
    take((n = twice(2), n));
    return i * 100 + j * 10 + n;
}

CPS int member_and_element(void)
{
    struct pair p;
    int a[2];
    take(p.a = 7);
    take(a[1] = 9);
    p.b = 1;
    a[0] = 2;
    return p.a * 10 + a[1] + p.b + a[0];
}

int main(void)
{
    int s = statement_form();
    int t = assign_and_decl_forms();
    int u = nested_and_comma();
    int v = member_and_element();
    printf("%d %d %d %d\n", s, t, u, v);
    CHECK(s == 4096 + 0xff);
    CHECK(t == 21 + 42 + 10 + 5);
    CHECK(u == 344 && v == 82);
    return 0;
}
