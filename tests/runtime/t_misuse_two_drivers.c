/* A second OS thread calling cpc_main_loop while the main thread drives
   the default scheduler aborts with a message: one OS thread per
   scheduler. */
#include "cps_test.h"

#include <pthread.h>

/* cps void sleeper(void) { cpc_sleep(1); } */
static cpc_continuation *sleeper__cps(cpc_continuation *k)
{
    return cpc_sleep__cps(k, 1, 0, NULL);
}
CT_DEFINE_SPAWN0(sleeper)

static void *second_driver(void *arg)
{
    (void)arg;
    usleep(50000);
    cpc_main_loop();
    return NULL;
}

int main(void)
{
    pthread_t t;
    sleeper__spawn();
    pthread_create(&t, NULL, second_driver, NULL);
    cpc_main_loop();
    CT_OUT("not reached\n");
    return 0;
}
