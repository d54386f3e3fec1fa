/* 6.5.17 comma operator: sequencing of cps calls, value of the last operand. */
#include "corpus.h"

static int trace[8], n;
CPS int rec(int v) { trace[n++] = v; return v; }

int main(void)
{
    int x = (rec(1), rec(2), rec(3));
    for (int i = rec(4), j = 0; j < 1; j++, rec(5))
        ;
    if ((rec(6), 0)) return 1;
    printf("%d |", x);
    for (int i = 0; i < n; i++) printf(" %d", trace[i]);
    printf("\n");
    return 0;
}
