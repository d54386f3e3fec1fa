/* An anonymous struct type inside a macro argument in a cps function that also uses
   assert (so that the translator works on its macro-expanded form). */
#include "corpus.h"
#include <assert.h>

#define SHOW(e) printf("%s = %d\n", #e, (int)(e))

CPS void pause(void) { }

CPS void f(void)
{
    assert(sizeof(struct { int x; }) == sizeof(int));
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
