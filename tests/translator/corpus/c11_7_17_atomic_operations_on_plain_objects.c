/* 7.17 <stdatomic.h>'s generic operations applied, as gcc allows, to objects that are not
   _Atomic (int, long, a pointer), beside _Atomic ones, in cps functions across calls, and in
   a function rendered with its macros expanded (a cps call out of a macro). */
#include <stdatomic.h>
#include "corpus.h"

#define STEP(x) id(x)

CPS int id(int x) { return x; }

CPS long plain(int n)
{
    int x = n;
    long l = 10;
    int *p = &x, *q = 0;
    _Atomic int ax = 3;
    int old = atomic_exchange(&x, 5);
    int got = id(old);
    atomic_fetch_add(&l, got);
    atomic_fetch_sub_explicit(&l, 1, memory_order_relaxed);
    int want = 5;
    _Bool swapped = atomic_compare_exchange_strong(&x, &want, 9);
    atomic_store(&q, p);
    atomic_fetch_or(&ax, 4);
    return atomic_load(&x) + atomic_load(&l) * 100 + swapped * 10000 + (*atomic_load(&q) == 9) * 100000
        + atomic_load(&ax) * 1000000 + id(0);
}

CPS long rendered(int n)
{
    int x = n;
    int old = atomic_exchange(&x, STEP(7));
    atomic_fetch_xor(&x, 1);
    return old * 100 + atomic_load_explicit(&x, memory_order_acquire) + STEP(0);
}

int main(void)
{
    printf("%ld %ld\n", plain(2), rendered(4));
    return 0;
}
