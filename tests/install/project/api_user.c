/* A C file using the runtime's C API, built with pkg-config alone. */
#include <stdio.h>
#include <cpc/cpc_runtime.h>

int main(void)
{
    cpc_condvar *c = cpc_condvar_get();
    cpc_signal(c);                  /* nobody waits: no effect */
    int waiting = cpc_condvar_count(c);
    cpc_condvar_release(c);
    cpc_main_loop();                /* nothing to run: returns */
    printf("condvar waiters %d\n", waiting);
    return 0;
}
