/* 6.5.1.1 generic selection: the controlling expression is not evaluated, and of the
   associations only the one selected is.  Each cps call counts itself: a call in the
   controlling expression or in an association not selected must not be made, also when
   several associations have the selection's type (the C compiler alone says which one it
   selects), when the selection is void, and when the result is discarded. */
#include "corpus.h"

static int calls;

CPS int f(int x) { calls++; return x * 10; }
CPS long g(long x) { calls += 100; return x; }
CPS void note(int x) { calls += 1000 * x; }

CPS long selections(int i, long l, char c)
{
    long r = 0;
    r += _Generic(f(1), int: 5, default: 6);                  /* not made */
    r += _Generic(i, int: f(2), long: g(3), default: f(4));   /* f(2) only */
    r += _Generic(l, int: f(5), long: g(6), default: f(7));   /* g(6) only */
    r += _Generic(c, int: f(8), default: f(9));               /* f(9): c is a char */
    r += _Generic(l, int: f(10), default: 7);                 /* neither call */
    _Generic(i, int: note(1), default: note(2));              /* note(1) */
    (void)_Generic(l, long: f(11), default: f(12));           /* f(11) */
    r += _Generic(i, int: f(f(1) + 1), default: f(13)) + _Generic(i, long: g(1), default: 1);
    return r;
}

int main(void)
{
    long r = selections(1, 2L, 'c');
    printf("%ld %d\n", r, calls);
    return 0;
}
