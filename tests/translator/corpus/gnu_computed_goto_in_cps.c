/* GNU computed goto inside a cps function: the dispatch loop itself makes no cps call,
   cps calls come before and after it. */
#include "corpus.h"

CPS int id(int x) { return x; }

CPS int run(const char *prog)
{
    static void *ops[] = {&&inc, &&dbl, &&end};
    int acc = id(1);
    const char *pc = prog;
    goto *ops[*pc++ - '0'];
inc: acc++; goto *ops[*pc++ - '0'];
dbl: acc *= 2; goto *ops[*pc++ - '0'];
end:
    return id(acc);
}

int main(void)
{
    printf("%d %d\n", run("0101002"), run("2"));
    return 0;
}
