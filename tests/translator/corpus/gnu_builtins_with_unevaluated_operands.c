/* GNU C builtins whose operands GCC does not evaluate: `__builtin_constant_p`,
   `__builtin_classify_type` and `__builtin_object_size` evaluate none of their arguments, and
   `__builtin_choose_expr` only the branch it chooses.  Each cps call counts itself: a call
   in an operand not evaluated must not be made. */
#include "corpus.h"

static int calls;

CPS int f(int x) { calls++; return x * 10; }
CPS double d(double x) { calls += 100; return x; }

CPS long builtins(int v)
{
    int a[8] = { 0 };
    long r = 0;
    r += __builtin_constant_p(f(1));
    r += __builtin_classify_type(f(2));
    r += (long)__builtin_object_size(&a[f(3) / 100], 0);
    r += __builtin_choose_expr(sizeof(int) == 4, f(4), d(5.0));           /* f(4) */
    r += (long)__builtin_choose_expr(sizeof(int) == 2, f(6), d(7.0));     /* d(7.0) */
    r += __builtin_choose_expr(1, f(v) + f(v + 1), d(8.0));               /* both f */
    return r;
}

int main(void)
{
    long r = builtins(2);
    printf("%ld %d\n", r, calls);
    return 0;
}
