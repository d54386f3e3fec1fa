/* Built with -Iinclude_a -DA_ONLY=1 (compile_commands.json). */
#include "fetch.h"
#ifndef A_ONLY
#error "a.c is analysed without its own flags"
#endif

void coroutine_fn fetch(int n)
{
    while (n-- > 0)
        wait_io();
}

/* calls a coroutine_fn: error */
int step(int n)
{
    fetch(n);
    return n;
}
