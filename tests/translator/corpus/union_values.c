/* Unions: type punning through members, unions as parameters/returns/locals across cps
   calls, a union with a struct member, a union of arrays. */
#include "corpus.h"
#include <stdint.h>

union num { uint32_t u; float f; unsigned char b[4]; };
union tagged { struct { int kind; int v; } s; long l; };

CPS union num from_float(float f) { union num n; n.f = f; return n; }
CPS uint32_t bits(union num n) { return n.u; }
CPS union tagged mk(int k, int v) { union tagged t = {.s = {k, v}}; return t; }

int main(void)
{
    union num n = from_float(1.0f);
    union tagged t = mk(2, 3);
    printf("%08x %08x %d %d\n", (unsigned)bits(n), (unsigned)bits(from_float(-2.5f)), t.s.kind, t.s.v);
    n.b[3] ^= 0x80;
    printf("%g\n", (double)n.f);
    return 0;
}
