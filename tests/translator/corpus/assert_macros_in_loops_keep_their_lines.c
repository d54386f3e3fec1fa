/* Macros that expand to statements -- glibc's assert (a statement
   expression with an if/else), musl's (an expression), a do-while(0) block
   over several lines -- in loops of cps functions: the function is
   re-printed with its macros expanded, and every line after them must
   keep its number (gdb, gcc's messages).  test_line_table.py checks the
   line table of this file. */
#include <assert.h>
#include "corpus.h"

#define MUSL_ASSERT(x) ((void)((x) || (printf("assert %s\n", #x), exit(2), 0)))
#define REQUIRE(x)                                  \
    do {                                            \
        if (!(x)) {                                 \
            printf("required: %s\n", #x);           \
            exit(3);                                \
        }                                           \
    } while (0)

CPS int half(int v) { return v / 2; }

CPS int glibc_style(int n)
{
    int total = 0;
    for (int i = 0; i < n; i++) {
        assert(i >= 0);
        total += half(i * 2);

        /* after the assert */
        total++;
    }
    while (n > 0) {
        assert(n > 0 && total >= 0);
        n = half(n);
    }
    return total;
}

CPS int musl_style(int n)
{
    int total = 0;
    do {
        MUSL_ASSERT(n >= 0);
        total += half(n);
        n--;
    } while (n > 0);
    /* a comment */

    return total;
}

CPS int block_macro(int n)
{
    int total = 0;
    for (int i = 0; i < n; i++) {
        REQUIRE(i < n);
        if (i % 2)
            total += half(i);
        else
            total -= half(i);
    }
    switch (n) {
    case 3:
        REQUIRE(total != 12345);
        total += half(10);
        break;
    default:
        break;
    }
    return total;
}

int main(void)
{
    printf("%d %d %d\n", glibc_style(4), musl_style(5), block_macro(3));
    return 0;
}
