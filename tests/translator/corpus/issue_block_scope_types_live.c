/* Block-scope struct types, _Atomic and _Complex variables live across cps calls and
   with their address taken. */
#include "corpus.h"
#include <complex.h>

CPS void pause(void) { }
static void touch(void *p) { (void)p; }

CPS double f(void)
{
    struct pt { int x, y; } p = {1, 2};
    _Atomic int at = 3;
    double _Complex z = 1.0 + 2.0 * I;
    struct pt *pp = &p;
    touch(&at);
    pause();
    p.x += at;
    z = z * z;
    pause();
    printf("%d %d %d %g %g\n", pp->x, p.y, (int)at, creal(z), cimag(z));
    return creal(z) + p.x;
}

int main(void)
{
    printf("%g\n", f());
    return 0;
}
