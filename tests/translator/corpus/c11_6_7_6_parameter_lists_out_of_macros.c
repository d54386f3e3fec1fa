/* 6.7.6 declarators: prototypes of cps functions whose parameter lists come out of a macro,
   the old way to write headers for compilers with and without prototypes (`P((int x))`,
   MiBench's ispell; `JPP`, `__P`), alone, several in one declaration, after a specifier out
   of a macro, and one definition written that way. */
#include "corpus.h"

#define P(args) args
#define EXTERN(type) extern type
#define NOARGS ()

CPS int twice P((int x));
EXTERN(CPS int) thrice P((int x)), four P((int));
CPS int zero NOARGS;
CPS long sum P((long a, long b)) { return a + b; }

CPS int twice(int x) { return 2 * x; }
CPS int thrice(int x) { return 3 * x; }
CPS int four(int x) { return twice(twice(x)); }
CPS int zero(void) { return 0; }

int main(void)
{
    printf("%d %d %d %d %ld\n", twice(1), thrice(1), four(1), zero(), sum(20, 22));
    return 0;
}
