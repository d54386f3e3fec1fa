/* Several cps function declarators in one declaration, and an unprototyped cps
   function declaration followed by a call with arguments. */
#include "corpus.h"

CPS int f(int a), g(int a);
CPS char *h();

int main(void)
{
    printf("%d %d %s\n", f(2), g(3), h(1, 2));
    return 0;
}

CPS int f(int a) { return a + 100; }
CPS int g(int a) { return f(a) * 2; }
CPS char *h(int a, int b) { static char buf[16]; snprintf(buf, sizeof buf, "<%d,%d>", a, b); return buf; }
