/* cpc_signal queues the thread it wakes at the tail of the run queue,
   after the threads already runnable, both where optimised code signals
   inline (cps code in a scheduler's loop: the header's macro) and where
   it calls the function (native code before the loop runs). */
#include "cps_test.h"

static cpc_condvar *cv;

/* cps void waiter(int id) { cpc_wait(cv); printf("woken %d\n", id); } */
CT_DEFINE_WAITER(cv)

/* cps void signaller(void) { cpc_signal(cv); printf("signalled\n"); } */
static cpc_continuation *signaller__cps(cpc_continuation *k)
{
    cpc_signal(cv);
    CT_OUT("signalled\n");
    return k;
}

/* cps void runnable(int id) { printf("runnable %d\n", id); } */
static cpc_continuation *runnable__cps(cpc_continuation *k, int id)
{
    CT_OUT("runnable %d\n", id);
    return k;
}

CT_DEFINE_SPAWN1(waiter, int)
CT_DEFINE_SPAWN0(signaller)
CT_DEFINE_SPAWN1(runnable, int)

int main(void)
{
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");
    /* In the loop: waiter 1 waits, the signaller wakes it while runnable
       threads 1 and 2 are queued. */
    waiter__spawn(1);
    signaller__spawn();
    runnable__spawn(1);
    runnable__spawn(2);
    cpc_main_loop();
    /* Waiter 2 waits (the loop returns: a condvar alone keeps nobody
       running); native code queues runnable 3, then signals. */
    waiter__spawn(2);
    cpc_main_loop();
    CT_CHECK(cpc_condvar_count(cv) == 1, "count %d", cpc_condvar_count(cv));
    runnable__spawn(3);
    cpc_signal(cv);
    CT_OUT("signalled from native code\n");
    cpc_main_loop();
    CT_CHECK(cpc_condvar_count(cv) == 0, "count %d", cpc_condvar_count(cv));
    cpc_condvar_release(cv);
    CT_OUT("done\n");
    return 0;
}
