/* 6.10.3 macro replacement: a statement that starts in a macro's replacement and ends in the
   file, around a cps call written in the file (`#define DEBUG if (debug) (void) printf` then
   `DEBUG("%s", sform(form));`, Prolangs-C's smail), a loop head out of a macro, an
   expression that starts with a macro invocation, and a declaration whose type is a macro
   (`bool c = f();` with `#define bool _Bool`, torture's 20141107-1: its text is its own). */
#include "corpus.h"

#define DEBUG if (debug) (void) printf
#define EACH(i, n) for (i = 0; i < (n); i++)
#define WRAP(x) ((x) * 10)
#define bool _Bool

static int debug = 1, calls;

CPS const char *name(int f)
{
    calls++;
    return f ? "yes" : "no";
}

CPS int twice(int x) { return 2 * x; }

CPS bool flip(int a, bool c)
{
    if (!a)
        c = !c;
    return c;
}

CPS int check(int a, bool b)
{
    bool c = flip(a, b);
    char d;
    memcpy(&d, &c, 1);
    return d == ((a == 0) ^ b);
}

int main(void)
{
    int i, t = 0;
    DEBUG("%s %s\n", "form",
          name(1));
    debug = 0;
    DEBUG("%s\n", name(0));
    EACH(i, 2) printf("%d %s\n", i, name(i));
    t = WRAP(i) + twice(3);
    bool c = twice(0);
    char d;
    memcpy(&d, &c, 1);
    printf("%d %d %d %d %d%d%d%d\n", calls, t, c, d, check(0, 0), check(0, 1), check(1, 1),
           check(1, 0));
    return 0;
}
