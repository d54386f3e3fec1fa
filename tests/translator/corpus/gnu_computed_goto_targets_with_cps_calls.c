/* GNU C computed goto (`goto *e;`) whose target expression makes a cps call: the call is
   made first, then the jump; a label address kept across a cps call still names its label
   (an interpreter's dispatch loop, with a threaded-code table and with label offsets). */
#include "corpus.h"

static int calls;

CPS int next(int pc) { calls++; return pc + 1; }

CPS int run(const int *code, int n)
{
    static void *const ops[] = { &&op_add, &&op_double, &&op_end };
    int acc = 0, pc = 0;
    void *resume_at = &&op_end;
    goto *ops[code[next(-1)]];
op_add:
    acc += 3;
    pc = next(pc);
    goto *ops[code[pc < n ? pc : n - 1]];
op_double:
    acc *= 2;
    pc = next(pc);
    goto *(pc < n ? ops[code[pc]] : resume_at);
op_end:
    return acc * 100 + pc;
}

CPS int by_offsets(int which)
{
    static const int offs[] = { &&first - &&first, &&second - &&first };
    int r = 1;
    goto *(&&first + offs[next(which) - 1]);
first:
    r += 10;
second:
    r += next(0);
    return r;
}

int main(void)
{
    const int code[] = { 0, 1, 0, 1, 2 };
    int a = run(code, 5), b = by_offsets(0), c = by_offsets(1);
    printf("%d %d %d %d\n", a, b, c, calls);
    return 0;
}
