/* Functions returning function pointers, native and cps, chained calls through the
   results, a table of cps function pointers.  (`cps int (*f(void))(int)` makes the
   returned pointer a cps one, so the function returning a native pointer stays native.) */
#include "corpus.h"

typedef CPS int op(int, int);
CPS int add(int a, int b) { return a + b; }
CPS int sub(int a, int b) { return a - b; }
static op *ops[] = {add, sub};

CPS op *choose(int i) { return ops[i]; }
CPS int (*choose2(char c))(int, int) { return c == '+' ? add : sub; }
static int native_twice(int x) { return 2 * x; }
static int (*native_getter(void))(int) { return native_twice; }

int main(void)
{
    printf("%d %d %d %d %d\n", choose(0)(2, 3), choose(1)(2, 3), choose2('+')(10, 1),
           choose2('-')(10, 1), native_getter()(21));
    return 0;
}
