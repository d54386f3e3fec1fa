/* Variable-length arrays in cps functions that are not live across a cps call, and a
   VLA in a native helper; sizeof of a VLA. */
#include "corpus.h"

static int native_sum(int n) { int v[n]; for (int i = 0; i < n; i++) v[i] = i; int s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }

CPS int id(int x) { return x; }

CPS int f(int n)
{
    int total = id(0);
    {
        int v[n];
        for (int i = 0; i < n; i++) v[i] = i * i;
        for (int i = 0; i < n; i++) total += v[i];
        total += (int)(sizeof v / sizeof v[0]);
    }
    return id(total) + native_sum(n);
}

int main(void)
{
    printf("%d %d\n", f(5), f(1));
    return 0;
}
