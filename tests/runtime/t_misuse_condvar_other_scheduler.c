/* A thread of one scheduler signalling a (plain) condvar of another
   aborts with a message saying so: only shared condvars cross schedulers.
   (The main thread creates the condvar, so it belongs to the default
   scheduler, then drives a second scheduler itself.) */
#include "cps_test.h"

static cpc_condvar *c;

/* cps void intruder(void) { cpc_signal(c); } */
static cpc_continuation *intruder__cps(cpc_continuation *k)
{
    cpc_signal(c);
    return k;
}
CPC_FRAMES_BEGIN
struct intruder__spawn { cpc_function *cpc_fn; };
CPC_FRAMES_END
static cpc_continuation *intruder__start(cpc_continuation *k)
{
    (void)CPC_POP(k, struct intruder__spawn);
    return intruder__cps(k);
}

int main(void)
{
    c = cpc_condvar_get();
    cpc_sched *s = cpc_scheduler_new();
    cpc_continuation *sk = cpc_continuation_new(sizeof(struct intruder__spawn));
    CPC_PUSH(sk, struct intruder__spawn)->cpc_fn = intruder__start;
    cpc_spawn_continuation_on(s, sk);
    cpc_scheduler_run(s);
    CT_OUT("not reached\n");
    return 0;
}
