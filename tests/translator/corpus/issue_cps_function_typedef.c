/* A function declared cps through a function typedef is cps (it can call cps functions
   and spawn its callers' work). */
#include "corpus.h"

typedef int ft(int);
extern CPS ft func;

CPS void pause(void) { }

CPS int func(int i)
{
    pause();
    return i * 3;
}

int main(void)
{
    int r = func(4) + func(5);
    printf("%d\n", r);
    return r == 27 ? 0 : 1;
}
