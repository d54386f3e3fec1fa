/* Variable-length arrays live across cps calls (C11 6.7.6.2): one and several
   dimensions, constant and variable ones mixed, arrays of structs and of
   function pointers; sizeof (of the array, of a row, in another array's
   bound); bounds evaluated once, where the declaration is reached; the
   array decayed, its address taken, passed to cps and native functions;
   declarators sharing a declaration; every way out of the scope
   (fall-through, break, continue, goto out of the block, goto back before the
   declaration, return); recursion, each invocation its own array. */
#include "corpus.h"

struct pt { int x, y; };

CPS int id(int x) { return x; }

static int native_sum(int n, const int *v) { int s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }

CPS int cps_sum(int n, int *v) { int s = 0; for (int i = 0; i < n; i++) s += id(v[i]); return s; }

static int twice(int x) { return 2 * x; }
static int plus1(int x) { return x + 1; }

CPS int one_dim(int n)
{
    int v[n];
    for (int i = 0; i < n; i++)
        v[i] = id(i * i);
    int s = id(0);
    for (int i = 0; i < n; i++)
        s += v[i];
    return s * 1000 + (int)(sizeof v / sizeof v[0]) + id((int)sizeof v);
}

CPS long two_dims(int r, int c)
{
    int m[r][c];
    int k[3][c];
    long q[r][4];
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++)
            m[i][j] = id(i * 10 + j);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < c; j++)
            k[i][j] = id(i - j);
    for (int i = 0; i < r; i++)
        for (int j = 0; j < 4; j++)
            q[i][j] = id(i * j);
    long s = 0;
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++)
            s += m[i][j] * (long)id(k[i % 3][j]) + q[i][j % 4];
    printf("two_dims %d %d: sizes %zu %zu %zu %zu %zu\n", r, c, sizeof m, sizeof m[0],
           sizeof k, sizeof k[1], sizeof q);
    return s + id(cps_sum(c, m[r - 1]));
}

CPS int bounds_once(int n)
{
    int k = n;
    int v[k++];
    int w[k * 2];
    k = id(100);
    v[0] = id(1);
    w[0] = 2;
    int u[sizeof v / sizeof v[0] + 1];
    u[0] = id(3);
    printf("bounds_once %d: %zu %zu %zu k=%d %d\n", n, sizeof v, sizeof w, sizeof u, k,
           v[0] + w[0] + u[0]);
    return (int)(sizeof v + sizeof w);
}

CPS int shared_declaration(int n)
{
    int a = id(2), v[n], b = a + 1, *p = v;
    for (int i = 0; i < n; i++)
        p[i] = id(i + a + b);
    int s = native_sum(n, v) + id((*&v)[n - 1]) + *v;
    return s + (int)(sizeof *&v / sizeof(int));
}

CPS int records_and_pointers(int n)
{
    struct pt pts[n];
    int (*fns[n])(int);
    for (int i = 0; i < n; i++) {
        pts[i].x = id(i);
        pts[i].y = -i;
        fns[i] = (i % 2) ? twice : plus1;
    }
    int s = 0;
    for (int i = 0; i < n; i++)
        s += fns[i](id(pts[i].x)) - pts[i].y;
    return s + (int)(sizeof pts + sizeof fns);
}

CPS int exits(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        int v[i + 1];
        v[i] = id(i);
        if (i == 2)
            continue;
        if (i == 6)
            break;
        s += v[i] + (int)sizeof v;
    }
    int tries = 0;
again:
    {
        int w[n + tries];
        w[0] = id(tries);
        tries++;
        if (tries < 3)
            goto again;
        s += w[0] + (int)sizeof w;
        if (n > 1)
            goto out;
        s += 1000;
    }
out:
    while (1) {
        int x[n];
        x[n - 1] = id(7);
        s += x[n - 1];
        break;
    }
    switch (n) {
    case 4: {
        int y[n];
        y[0] = id(11);
        s += y[0];
        break;
    }
    default:
        break;
    }
    return s;
}

CPS int returns_inside(int n)
{
    if (n > 0) {
        int v[n];
        v[0] = id(n);
        if (n > 2)
            return v[0] + (int)sizeof v + id(1);
        return v[0];
    }
    return -1;
}

CPS int recursive(int depth)
{
    int v[depth + 1];
    for (int i = 0; i <= depth; i++)
        v[i] = depth;
    int below = depth > 0 ? recursive(depth - 1) : 0;
    int s = 0;
    for (int i = 0; i <= depth; i++)
        s += v[i];
    return s + below + id((int)sizeof v);
}

int main(void)
{
    printf("one_dim %d %d\n", one_dim(5), one_dim(1));
    printf("two_dims %ld\n", two_dims(4, 3));
    printf("two_dims %ld\n", two_dims(1, 7));
    printf("bounds_once %d\n", bounds_once(3));
    printf("shared_declaration %d\n", shared_declaration(4));
    printf("records_and_pointers %d\n", records_and_pointers(5));
    printf("exits %d %d\n", exits(4), exits(1));
    printf("returns_inside %d %d %d\n", returns_inside(5), returns_inside(2), returns_inside(0));
    printf("recursive %d\n", recursive(6));
    for (int i = 0; i < 200; i++)
        CHECK(one_dim(64) == one_dim(64));
    return 0;
}
