/* 6.6 constant expressions: array sizes, case labels, enum values, static initialisers,
   _Static_assert, address constants. */
#include "corpus.h"
#include <stddef.h>

enum { A = 3, B = A * 4, C = sizeof(long) * 2, D = (1 << 4) | 1 };
struct s { char c; double d; };
static int arr[B - A];
static int *addr = &arr[2];
static const size_t off = offsetof(struct s, d);
_Static_assert(sizeof arr / sizeof arr[0] == 9, "size");

CPS int classify(int x)
{
    switch (x) {
    case A: return 1;
    case B: return 2;
    case D: return 3;
    case (int)(2.5 * 4): return 4;
    default: return 0;
    }
}

int main(void)
{
    printf("%d %d %d %d %d\n", classify(3), classify(12), classify(17), classify(10),
           classify(5));
    printf("%d %d %d\n", (int)(addr - arr), (int)off, (int)C);
    return 0;
}
