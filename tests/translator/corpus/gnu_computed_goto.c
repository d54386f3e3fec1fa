/* GNU computed goto (labels as values) in a native interpreter called from cps code,
   and in a cps function whose dispatch loop makes no cps call between jumps. */
#include "corpus.h"

static int interp(const char *prog)
{
    static void *ops[] = {&&inc, &&dbl, &&end};
    int acc = 0;
    const char *pc = prog;
    goto *ops[*pc++ - '0'];
inc: acc++; goto *ops[*pc++ - '0'];
dbl: acc *= 2; goto *ops[*pc++ - '0'];
end: return acc;
}

CPS int run(const char *p) { return interp(p); }

int main(void)
{
    printf("%d %d\n", run("0101002"), run("2"));
    return 0;
}
