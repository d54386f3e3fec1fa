/* cpc_signal from outside the scheduler's loop: native code on the host
   thread between two cpc_scheduler_run_once calls, and cps code run there
   by cpc_continuation_run.  The scheduler is parked then, so the woken
   thread must count it busy again and call the host's wake-up (the
   signal's fast path, taken inside the loop, never looks at `parked`: the
   thread's condvar key tells the two apart).  Inside the loop, a signal
   wakes the waiter without calling the host. */
#include "cps_test.h"

static cpc_condvar *cv;
static int wakeups, woken;

static void host_wake(void *arg)
{
    (void)arg;
    wakeups++;
}

CPC_FRAMES_BEGIN
struct waiter__frame { int id; cpc_function *cpc_fn; };
struct signaller__frame { cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void waiter(int id) { cpc_wait(cv); print; } */
static cpc_continuation *waiter__resume(cpc_continuation *k)
{
    struct waiter__frame *f = CPC_POP(k, struct waiter__frame);
    int r;
    CPC_RESULT(r, f);
    CT_CHECK(r == CPC_CONDVAR, "waiter %d: result %d", f->id, r);
    CT_OUT("waiter %d woken\n", f->id);
    woken++;
    return k;
}
static cpc_continuation *waiter__cps(cpc_continuation *k, int id)
{
    struct waiter__frame *f = CPC_PUSH(k, struct waiter__frame);
    f->id = id;
    f->cpc_fn = waiter__resume;
    return cpc_wait__cps(k, cv, -1, 0);
}
CT_DEFINE_SPAWN1(waiter, int)

/* cps void signaller(void) { cpc_signal(cv); } -- inside the loop */
static cpc_continuation *signaller__cps(cpc_continuation *k)
{
    cpc_signal(cv);
    return k;
}
CT_DEFINE_SPAWN0(signaller)

/* Runs `waiter(id)` on this OS thread with cpc_continuation_run: it waits
   on cv outside the loop and is left on cv's list. */
CPC_FRAMES_BEGIN
struct run_waiter__args { int id; cpc_function *cpc_fn; };
CPC_FRAMES_END
static cpc_continuation *run_waiter__start(cpc_continuation *k)
{
    struct run_waiter__args *a = CPC_POP_FIRST(k, struct run_waiter__args);
    return waiter__cps(k, a->id);
}
static void run_waiter(int id)
{
    cpc_continuation *k = cpc_continuation_new(sizeof(struct run_waiter__args));
    struct run_waiter__args *a = CPC_PUSH_FIRST(k, struct run_waiter__args);
    a->id = id;
    a->cpc_fn = run_waiter__start;
    CT_CHECK(cpc_continuation_run(k) == NULL, "waiter %d did not suspend", id);
}

/* Turn the loop until run_once says nothing can run. */
static int turns(cpc_sched *s)
{
    int n = 0;
    while (cpc_scheduler_run_once(s))
        CT_CHECK(++n < 1000, "run_once never returned 0");
    return n;
}

int main(void)
{
    cpc_sched *s = cpc_scheduler_default();
    cpc_scheduler_set_wakeup(s, host_wake, NULL);
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");

    /* 1. A waiter parks the scheduler; native code signals it. */
    waiter__spawn(1);
    turns(s);
    CT_CHECK(woken == 0 && cpc_condvar_count(cv) == 1, "waiter 1 not waiting");
    wakeups = 0;
    cpc_signal(cv);
    CT_OUT("native signal: %d host wake-up(s)\n", wakeups);
    turns(s);

    /* 2. cps code run by cpc_continuation_run waits outside the loop;
       native code signals it. */
    run_waiter(2);
    CT_CHECK(cpc_condvar_count(cv) == 1, "waiter 2 not on the condvar");
    wakeups = 0;
    cpc_signal(cv);
    CT_OUT("native signal after cpc_continuation_run: %d host wake-up(s)\n",
           wakeups);
    turns(s);

    /* 3. Inside the loop: a thread signals, the host is not called. */
    waiter__spawn(3);
    signaller__spawn();
    wakeups = 0;
    turns(s);
    CT_OUT("signal in the loop: %d host wake-up(s)\n", wakeups);

    CT_CHECK(woken == 3, "%d waiters woken, not 3", woken);
    cpc_condvar_release(cv);
    return 0;
}
