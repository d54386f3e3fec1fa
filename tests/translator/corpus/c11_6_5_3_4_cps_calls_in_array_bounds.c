/* 6.5.3.4 and 6.7.6.2: the bounds of a variable-length array type are evaluated, also in
   `sizeof` and `_Alignof` (whose operand is otherwise not), in `typeof`, in a cast and in a
   declaration.  A cps call in such a bound is made once, before the declaration or the
   expression, and before the initialiser's calls; each call counts itself.  (A variable-
   length array cannot live across a cps call: each is used before the next.) */
#include "corpus.h"

static int calls;

CPS int f(int x) { calls++; return x; }

CPS long in_sizeof(int n)
{
    long r = (long)sizeof(int[f(n)]);                   /* f made once */
    r += (long)sizeof(char[3][f(2)]);
    r += (long)_Alignof(long[f(1)]);
    r += (long)sizeof(int[4]) + (long)sizeof(f(9));     /* not made */
    return r;
}

CPS long in_declarations(int n, void *p)
{
    long s = 0;
    {
        int q[f(n) + 1];                                /* 4 ints */
        q[0] = 7;
        s += (long)sizeof q + q[0];
    }
    {
        int (*rows)[f(3)] = (int (*)[f(3)])p;           /* bound, then initialiser */
        s += (long)sizeof *rows + (*rows)[1];
    }
    {
        __typeof__(int[f(2)]) pair;
        pair[0] = 1;
        s += (long)sizeof pair + pair[0];
    }
    {
        int x = f(5);
        int last[f(2)];
        last[1] = x;
        s += last[1];
    }
    return s;
}

int main(void)
{
    int grid[3][3] = { { 0, 4 } };
    long a = in_sizeof(5);
    long b = in_declarations(3, grid);
    printf("%ld %ld %d\n", a, b, calls);
    return 0;
}
