/* _Atomic objects and stdatomic operations in cps functions (one thread: the values are
   deterministic). */
#include "corpus.h"
#include <stdatomic.h>

static _Atomic int global = 1;
CPS int id(int x) { return x; }

CPS int f(void)
{
    atomic_int a = ATOMIC_VAR_INIT(5);
    atomic_fetch_add(&a, id(3));
    global += id(2);
    int expected = 8;
    int ok = atomic_compare_exchange_strong(&a, &expected, 20);
    id(0);
    _Atomic(long) l = 7;
    l *= 3;
    return atomic_load(&a) + ok * 100 + global * 1000 + (int)l * 10000;
}

int main(void)
{
    printf("%d\n", f());
    return 0;
}
