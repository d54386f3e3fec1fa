/* An anonymous struct type inside a macro argument in a cps function. */
#include "corpus.h"

#define SHOW(e) printf("%s = %d\n", #e, (int)(e))

CPS void pause(void) { }

CPS void f(void)
{
    pause();
    SHOW(sizeof(struct { char a; char b; }));
    pause();
    SHOW(_Alignof(struct { char a; long b; }));
}

int main(void)
{
    f();
    return 0;
}
