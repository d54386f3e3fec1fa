/* 6.7.1 storage-class specifiers in cps functions: static locals keep their value
   across calls and suspensions, register locals, extern declarations at block scope,
   _Thread_local at file scope. */
#include "corpus.h"

int shared = 10;
static _Thread_local int per_thread = 3;

CPS int counter(void)
{
    static int n;
    register int r = 2;
    extern int shared;
    n += r;
    shared++;
    return n + per_thread;
}

int main(void)
{
    int a = counter();
    int b = counter();
    int c = counter();
    printf("%d %d %d %d\n", a, b, c, shared);
    return 0;
}
