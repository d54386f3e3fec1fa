/* cpc_wait with a timeout: the first event wins and the thread leaves the
   other structure.  Threads that time out leave the condvar (count drops,
   signal order of the others is kept); threads that are signalled leave
   the timer heap (the loop does not wait for their deadlines). */
#include "cps_test.h"

static cpc_condvar *cv;
static double t0;

CPC_FRAMES_BEGIN
struct waiter__frame_1 { int id; cpc_function *cpc_fn; };
struct control__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *waiter__resume_1(cpc_continuation *k)
{
    struct waiter__frame_1 *cpc_f = CPC_POP(k, struct waiter__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    CT_OUT("waiter %d: %s\n", cpc_f->id,
           r == CPC_TIMEOUT ? "timeout" : r == CPC_CONDVAR ? "condvar" : "?");
    return k;
}

/* cps void waiter(int id, int ms)
   { int r = ms < 0 ? cpc_wait(cv) : cpc_wait(cv, 0, ms * 1000); ... } */
static cpc_continuation *waiter__cps(cpc_continuation *k, int id, int ms)
{
    struct waiter__frame_1 *cpc_f = CPC_PUSH(k, struct waiter__frame_1);
    cpc_f->id = id;
    cpc_f->cpc_fn = waiter__resume_1;
    if (ms < 0)
        return cpc_wait__cps(k, cv, -1, 0);
    return cpc_wait__cps(k, cv, ms / 1000, (ms % 1000) * 1000);
}
CT_DEFINE_SPAWN2(waiter, int, int)

static cpc_continuation *control__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct control__frame_1);
    /* Waiters 1 and 3 (10 ms) have timed out by now. */
    CT_OUT("after 50 ms: count %d; signal_all\n", cpc_condvar_count(cv));
    cpc_signal_all(cv);
    return k;
}

/* cps void control(void) { cpc_sleep(0, 50000); ...; cpc_signal_all(cv); } */
static cpc_continuation *control__cps(cpc_continuation *k)
{
    struct control__frame_1 *cpc_f = CPC_PUSH(k, struct control__frame_1);
    cpc_f->cpc_fn = control__resume_1;
    return cpc_sleep__cps(k, 0, 50000, NULL);
}
CT_DEFINE_SPAWN0(control)

int main(void)
{
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");
    t0 = ct_now();
    waiter__spawn(0, -1);        /* plain wait */
    waiter__spawn(1, 10);        /* times out first, from the middle */
    waiter__spawn(2, 5000);      /* signalled long before its deadline */
    waiter__spawn(3, 10);
    waiter__spawn(4, -1);
    waiter__spawn(5, 3000000);   /* signalled, deadline in ~1 hour */
    control__spawn();
    cpc_main_loop();
    double elapsed = ct_now() - t0;
    CT_CHECK(elapsed < 2.0, "the loop waited %.2fs for the deadlines of "
             "signalled threads", elapsed);
    CT_CHECK(cpc_condvar_count(cv) == 0, "count %d", cpc_condvar_count(cv));
    cpc_condvar_release(cv);
    CT_OUT("done\n");
    return 0;
}
