/* 6.5.15 conditional operator: only the chosen operand is evaluated; struct, pointer,
   void and null-pointer operands; nested; GNU ?: with omitted middle operand. */
#include "corpus.h"

struct v { int a; };
static int evals;
CPS int e(int x) { evals++; return x; }
CPS struct v sv(int a) { return (struct v){a}; }
CPS void nothing(void) { evals += 10; }

int main(void)
{
    int a = e(1) ? e(2) : e(3);
    int b = e(0) ? e(4) : e(0) ? e(5) : e(6);
    struct v s = e(1) ? sv(7) : sv(8);
    int *p = e(0) ? &a : 0;
    e(1) ? nothing() : (void)e(99);
    int c = e(0) ?: e(11);
    int d = e(12) ?: e(13);
    printf("%d %d %d %d %d %d evals=%d\n", a, b, s.a, p == 0, c, d, evals);
    return 0;
}
