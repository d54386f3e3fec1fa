/* 6.8.6.4 return: returning cps results of every kind directly (tail position),
   returning from inside loops and switches, void returns. */
#include "corpus.h"

struct pair { long a, b; };
CPS int i(int x) { return x; }
CPS double d(double x) { return x; }
CPS struct pair p(long a) { return (struct pair){a, -a}; }
CPS void v(void) { return; }

CPS int ti(int x) { return i(x + 1); }
CPS double td(double x) { return d(x * 2); }
CPS struct pair tp(long a) { return p(a * 3); }
CPS void tv(void) { return v(); }
CPS int conv(void) { return d(2.9); }
CPS int from_loop(int n) { for (int k = 0; ; k++) { if (k == n) return i(k * 10); } }
CPS int from_switch(int n) { switch (n) { case 1: return i(11); default: return i(22); } }

int main(void)
{
    tv();
    struct pair q = tp(5);
    printf("%d %g %ld %ld %d %d %d %d\n", ti(1), td(1.25), q.a, q.b, conv(), from_loop(4),
           from_switch(1), from_switch(2));
    return 0;
}
