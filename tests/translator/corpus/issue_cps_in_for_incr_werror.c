/* A cps call in a for increment and in a do-while condition, -Wall -Werror.
   corpus-flags: -Wall -Werror */
#include "corpus.h"

CPS int next(int i) { return i + 2; }
CPS int more(int i) { return i < 9; }

int main(void)
{
    int i, n = 0;
    for (i = 0; i < 10; i = next(i))
        n += i;
    i = 0;
    do
        n += 100;
    while (more(i = next(i)));
    printf("%d %d\n", n, i);
    return 0;
}
