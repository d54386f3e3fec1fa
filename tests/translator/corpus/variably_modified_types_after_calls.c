/* Variables read only by the array bounds of a variably modified type,
 * after a cps call: a VLA typedef, a pointer to a VLA, sizeof of a VLA
 * type name or of an expression of VLA type (its operand is evaluated,
 * C11 6.5.3.4) and a VLA itself. */
#include "corpus.h"

CPS int id(int v) { return v; }

CPS int typedef_bound(int i, int j)
{
    id(0);
    typedef int row[i + 2];
    if (j == 2)
        return (int) sizeof(row);
    return (int) sizeof(row) * 3;
}

CPS int sizeof_type_name(int i)
{
    int k = id(i) - i;
    return (int) sizeof(int[i]) + (int) sizeof(char[i][i + k]) + (int) _Alignof(int[i]);
}

CPS int pointer_to_vla(int i)
{
    id(0);
    int (*p)[i] = 0;
    int (*q)[i][2];
    q = 0;
    return (int) sizeof(*p) + (int) sizeof(**q) + (p == 0);
}

CPS int vla_after_call(int n)
{
    int m = id(n + 1);
    int v[m];
    for (int i = 0; i < m; i++)
        v[i] = i * n;
    return (int) sizeof v + v[m - 1];
}

CPS int bound_with_side_effect(int n)
{
    id(0);
    int (*p)[n++] = 0;
    return n * 100 + (int) sizeof(*p) + (p != 0);
}

int main(void)
{
    int a = typedef_bound(20, 3), b = typedef_bound(4, 2), c = sizeof_type_name(5);
    int d = pointer_to_vla(6), e = vla_after_call(4), f = bound_with_side_effect(3);
    printf("%d %d %d %d %d %d\n", a, b, c, d, e, f);
    CHECK(a == 66 * (int) sizeof(int) && b == 6 * (int) sizeof(int));
    CHECK(c == 20 + 25 + (int) _Alignof(int) && d == 24 + 8 + 1);
    CHECK(e == 20 + 16 && f == 412);
    return 0;
}
