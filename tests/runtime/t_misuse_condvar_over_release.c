/* Releasing a condvar more times than it was retained aborts with a clear
   message. */
#include "cps_test.h"

int main(void)
{
    cpc_condvar *c = cpc_condvar_get();
    cpc_condvar_retain(c);
    cpc_condvar_release(c);
    cpc_condvar_release(c);
    /* A malloc in between must not hide the error. */
    void *p = malloc(64);
    cpc_condvar_release(c);
    free(p);
    CT_OUT("not caught\n");
    return 0;
}
