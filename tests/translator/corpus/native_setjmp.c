/* setjmp/longjmp inside native code called from cps functions (a jmp_buf parameter is
   an array type, hence a pointer). */
#include "corpus.h"
#include <setjmp.h>

static void fail(jmp_buf env, int code) { longjmp(env, code); }

static int guarded(int v)
{
    jmp_buf env;
    int code = setjmp(env);
    if (code)
        return -code;
    if (v > 2)
        fail(env, v);
    return v * 10;
}

CPS int id(int x) { return x; }

int main(void)
{
    for (int i = 0; i < 5; i++)
        printf("%d ", guarded(id(i)));
    printf("\n");
    return 0;
}
