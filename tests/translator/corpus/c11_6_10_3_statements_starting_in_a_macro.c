/* 6.10.3 macro replacement: a statement that starts in a macro's replacement and ends in the
   file, around a cps call written in the file (`#define DEBUG if (debug) (void) printf` then
   `DEBUG("%s", sform(form));`, Prolangs-C's smail), a loop head out of a macro, and an
   expression that starts with a macro invocation. */
#include "corpus.h"

#define DEBUG if (debug) (void) printf
#define EACH(i, n) for (i = 0; i < (n); i++)
#define WRAP(x) ((x) * 10)

static int debug = 1, calls;

CPS const char *name(int f)
{
    calls++;
    return f ? "yes" : "no";
}

CPS int twice(int x) { return 2 * x; }

int main(void)
{
    int i, t = 0;
    DEBUG("%s %s\n", "form",
          name(1));
    debug = 0;
    DEBUG("%s\n", name(0));
    EACH(i, 2) printf("%d %s\n", i, name(i));
    t = WRAP(i) + twice(3);
    printf("%d %d\n", calls, t);
    return 0;
}
