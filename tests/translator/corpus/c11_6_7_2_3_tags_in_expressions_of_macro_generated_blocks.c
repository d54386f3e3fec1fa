/* 6.7.2.3 a struct defined in an expression (sizeof, a cast) in each block of a cps function
   that one macro generates: the function is rendered with its macros expanded, and each
   definition goes back in front of its own block's item (the items of one expansion share
   their place in the file), and, with a block-scope struct each, to file scope. */
#include "corpus.h"

static int total;

CPS int id(int x) { return x; }

#define B0 { struct s { int a; } v = { id(1) }; total += v.a + (int)sizeof(struct t { int b[2]; }); }
#define B1 B0 B0
#define B2 B1 B1
#define B3 B2 B2

CPS int blocks(void)
{
    B3
    return total + id(0);
}

int main(void)
{
    printf("%d\n", blocks());
    return 0;
}
