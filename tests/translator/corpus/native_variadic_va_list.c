/* Variadic native functions called from cps code, va_list passed to v* functions and
   to a helper, va_copy. */
#include "corpus.h"
#include <stdarg.h>

static int vsum(int n, va_list ap)
{
    int s = 0;
    while (n--) s += va_arg(ap, int);
    return s;
}

static int sum(int n, ...)
{
    va_list ap, cp;
    va_start(ap, n);
    va_copy(cp, ap);
    int s = vsum(n, ap);
    int first = n ? va_arg(cp, int) : -1;
    va_end(cp);
    va_end(ap);
    return s * 100 + first;
}

static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
}

CPS int id(int x) { return x; }

int main(void)
{
    say("%d %s %g\n", sum(3, id(1), id(2), id(3)), "va", 1.5);
    say("%d\n", sum(0));
    return 0;
}
