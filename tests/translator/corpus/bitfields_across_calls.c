/* Bit-fields: signed and unsigned, _Bool bit-fields, updates through cps results,
   overflow wrap of unsigned bit-fields, bit-fields in a struct value passed and returned. */
#include "corpus.h"

struct flags { unsigned ready : 1; signed level : 4; unsigned count : 3; _Bool on : 1; unsigned long wide : 40; };

CPS int id(int x) { return x; }
CPS struct flags bump(struct flags f) { f.count++; f.level--; f.wide <<= 1; return f; }

int main(void)
{
    struct flags f = {1, -2, 6, 1, 1UL << 38};
    f = bump(f);
    f = bump(f);
    f.ready = id(2);
    f.on = id(5);
    f.level += id(3);
    printf("%u %d %u %d %lu\n", f.ready, f.level, f.count, f.on, (unsigned long)f.wide);
    return 0;
}
