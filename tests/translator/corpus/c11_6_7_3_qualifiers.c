/* 6.7.3 type qualifiers: const, volatile, restrict and _Atomic on parameters, locals
   and pointees in cps functions. */
#include "corpus.h"

CPS void pause(void) { }

CPS int copy(int *restrict dst, const int *restrict src, int n)
{
    for (int i = 0; i < n; i++) {
        pause();
        dst[i] = src[i] * 2;
    }
    return n;
}

CPS int spin(volatile int *flag)
{
    int seen = 0;
    while (*flag) {
        pause();
        (*flag)--;
        seen++;
    }
    return seen;
}

CPS long atomics(void)
{
    _Atomic long a = 5;
    const volatile int cv = 4;
    pause();
    a += cv;
    pause();
    return a;
}

int main(void)
{
    int src[3] = {1, 2, 3}, dst[3];
    volatile int f = 4;
    int n = copy(dst, src, 3);
    printf("%d %d %d %d %d %ld\n", n, dst[0], dst[2], spin(&f), f, atomics());
    return 0;
}
