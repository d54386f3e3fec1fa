/* GNU C in a cps function that the translator renders with its macros expanded (a macro
   wraps its cps calls): Clang's rendering of each construct must compile with gcc and compute
   what the source does.  Designated ranges, bit-fields, static and thread-local locals,
   _Atomic, cleanup, a variably modified typedef, label addresses, builtins, _Generic,
   typeof, case ranges, fallthrough, long double, hex floats, complex, string and character
   escapes, __int128, statement expressions, computed goto, local labels, __func__. */
#include <complex.h>
#include <stdatomic.h>
#include <stddef.h>
#include <wchar.h>
#include "corpus.h"

CPS int seen(int v) { return v; }

#define SEEN(e) seen(e)

static void done(int *p) { printf("cleanup %d\n", *p); }
static int g;

CPS int everything(int n)
{
    __label__ out;
    int a[8] = { [0 ... 3] = 1, [5] = 2 };
    int s = SEEN(0);
    struct bits { unsigned x : 3; signed y : 4; } b = { 5, -3 };
    static int calls = 0;
    static __thread int tl = 4;
    _Atomic int at = 3;
    {
        __attribute__((cleanup(done))) int d = SEEN(7);
        d += n;
    }
    int c = 9;
    void *targets[] = { &&l1, &&l2 };
    _Static_assert(sizeof(int) == 4, "int");
    s += SEEN(__builtin_types_compatible_p(int, long) + __builtin_choose_expr(1, 10, 20.0));
    s += _Generic(1.0f, float: 100, default: 0);
    __typeof__(s) t = 3;
    {
        typedef int vla[n];
        vla v;
        s += t + (int)(sizeof v / sizeof v[0]) + b.x + b.y + calls++ + tl;
    }
    atomic_fetch_add(&at, 2);
    s += SEEN(at);
    for (int i = 0; i < 8; i++)
        s += a[i];
    switch (n) {
    case 1 ... 3:
        s += SEEN(1000);
        __attribute__((fallthrough));
    case 4:
        s += 2000;
        break;
    default:
        break;
    }
    long double ld = 1.5L;
    double h = 0x1p-3;
    double complex z = 1.0 + 2.0 * I;
    s += (int)(ld * 2) + (int)(h * 8) + (int)cimag(z);
    char str[] = "a\tb\x7f" "c\0d";
    wchar_t w = L'x';
    const char *u8 = u8"\u00e9";
    s += (int)sizeof str + (w == L'x') + (unsigned char)u8[0] + '\377' + (unsigned char)'\377';
    __int128 big = (__int128)1 << 100;
    s += (int)(big >> 98);
    s += __extension__ ({ int q = SEEN(5); q * 2; });
    unsigned long long ull = 18446744073709551615ULL;
    s += (int)(ull & 7);
    goto *targets[n & 1];
l1:
    s += 1;
l2:
    s += SEEN(2);
    if (s > 0)
        goto out;
    s = -1;
out:
    g = s;
    printf("%s %d\n", __func__, c);
    return s;
}

int main(void)
{
    int x = everything(2);
    int y = everything(5);
    printf("%d %d %d\n", x, y, g);
    return 0;
}
