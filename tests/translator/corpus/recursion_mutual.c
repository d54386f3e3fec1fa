/* Recursion: direct, mutual, and deep (10,000 levels) cps recursion; every level is a
   heap frame, not a C stack frame. */
#include "corpus.h"

CPS int is_odd(int n);
CPS int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
CPS int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
CPS long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
CPS long depth(int n) { if (n == 0) return 0; long r = depth(n - 1); return r + 1; }
CPS int ackermann(int m, int n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ackermann(m - 1, 1);
    return ackermann(m - 1, ackermann(m, n - 1));
}

int main(void)
{
    printf("%d %d %ld %ld %d\n", is_even(10), is_odd(7), fib(18), depth(10000), ackermann(2, 3));
    return 0;
}
