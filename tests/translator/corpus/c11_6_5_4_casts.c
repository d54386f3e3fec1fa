/* 6.5.4 cast operators over every conversion, applied to cps results. */
#include "corpus.h"
#include <stdint.h>

CPS double d(void) { return -3.75; }
CPS long l(void) { return 300; }
CPS unsigned u(void) { return 0xfffffff0u; }
CPS void *vp(void *p) { return p; }

int main(void)
{
    int x = 9;
    printf("%d %u %ld\n", (int)d(), (unsigned char)l(), (long)(int)u());
    printf("%g %g\n", (double)l(), (float)d());
    printf("%d\n", *(int *)vp(&x));
    printf("%d %d\n", (_Bool)d(), (_Bool)(l() - 300));
    uintptr_t a = (uintptr_t)vp(&x);
    printf("%d\n", (int *)a == &x);
    (void)d();
    printf("%lld\n", (long long)(signed char)u());
    return 0;
}
