/* C11 6.5.5-6.5.6: multiplicative and additive operators, through cps calls. */
#include "corpus.h"

CPS int add(int a, int b) { return a + b; }
CPS long mul(long a, long b) { return a * b; }
CPS unsigned divmod(unsigned a, unsigned b) { return a / b * 100 + a % b; }

int main(void)
{
    int x = add(3, 4);
    long y = mul(x, -6);
    printf("%d %ld %u\n", x, y, divmod(1234u, 7u));
    printf("%d %d\n", -7 / 2, -7 % 2);
    CHECK(add(add(1, 2), add(3, 4)) == 10);
    return 0;
}
