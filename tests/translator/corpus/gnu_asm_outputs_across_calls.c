/* A variable first set by an asm statement's output operand, then read
 * after a cps call: the asm wrote it, so its value must survive the call. */
#include "corpus.h"

#if defined(__x86_64__) || defined(__i386__)
#define SET(var, value) __asm__("movl %1, %0" : "=r"(var) : "i"(value))
#define SET_MEM(var, value) __asm__("movl %1, %0" : "=m"(var) : "i"(value))
#else
#define SET(var, value) ((var) = (value))
#define SET_MEM(var, value) ((var) = (value))
#endif

CPS int id(int v) { return v; }

CPS int outputs(void)
{
    int x, y, z;
    SET(x, 5);
    SET_MEM(y, 7);
    ({ SET(z, 9); });
    id(0);
    return x * 100 + y * 10 + z;
}

int main(void)
{
    int r = outputs();
    printf("%d\n", r);
    CHECK(r == 579);
    return 0;
}
