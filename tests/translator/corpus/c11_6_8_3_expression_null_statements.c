/* 6.8.3 expression and null statements: a cps call as a statement, cast to void, null
   statements as loop bodies and labels. */
#include "corpus.h"

static int n;
CPS int bump(void) { return ++n; }

int main(void)
{
    bump();
    (void)bump();
    ;
    for (; bump() < 5;)
        ;
    while (bump() < 8);
    if (n) ; else bump();
    goto end;
end:
    ;
    printf("%d\n", n);
    return 0;
}
