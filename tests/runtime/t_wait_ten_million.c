/* Ten million threads wait on one condvar, then cpc_signal_all wakes them,
   in wait order.  An idle thread (blocked in cpc_wait with an empty frame
   stack: `cps void waiter(int id) { cpc_wait(cv); }` tail-calls it) costs
   its continuation, a 32-byte slab slot (runtime/cpc_continuation.c), well
   within the goal of 48 bytes; measured as the growth of the resident set
   (slabs are mmap'd, out of malloc's sight) and printed on stderr. */
#include "cps_test.h"

static cpc_condvar *cv;
static int next_id, woken;

/* cps void waiter(int id) { return cpc_wait(cv); } -- a tail call: the
   thread waits with no frame at all.  Its continuation ends when it is
   woken; the check of the wake-up order is done by a second kind of
   thread below. */
static cpc_continuation *waiter__cps(cpc_continuation *k, int id)
{
    (void)id;
    return cpc_wait__cps(k, cv, -1, 0);
}
CT_DEFINE_SPAWN1(waiter, int)

CPC_FRAMES_BEGIN
struct checker__frame_1 { int id; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void checker(int id) { cpc_wait(cv); check id == next_id++; } */
static cpc_continuation *checker__resume_1(cpc_continuation *k)
{
    struct checker__frame_1 *cpc_f = CPC_POP(k, struct checker__frame_1);
    CT_CHECK(cpc_f->id == next_id, "woken %d, expected %d", cpc_f->id, next_id);
    next_id++;
    woken++;
    return k;
}
static cpc_continuation *checker__cps(cpc_continuation *k, int id)
{
    struct checker__frame_1 *cpc_f = CPC_PUSH(k, struct checker__frame_1);
    cpc_f->id = id;
    cpc_f->cpc_fn = checker__resume_1;
    return cpc_wait__cps(k, cv, -1, 0);
}
CT_DEFINE_SPAWN1(checker, int)

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 10000000;
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");

    long before = ct_rss_bytes();
    double t = ct_now();
    for (int i = 0; i < n; i++)
        waiter__spawn(i);
    cpc_main_loop();    /* returns: only condvar waiters are left */
    double per = (double)(ct_rss_bytes() - before) / n;
    fprintf(stderr, "%d idle threads: %.1f bytes each (resident set "
            "growth); spawn+wait %.0f ns/thread\n", n, per,
            (ct_now() - t) * 1e9 / n);
    CT_CHECK(cpc_condvar_count(cv) == n, "count %d", cpc_condvar_count(cv));
    /* 32 bytes, plus the slabs' headers and whatever else the process
       touched meanwhile: under 4 bytes a thread at this scale. */
    CT_CHECK(per <= 36, "an idle thread costs %.1f bytes (> 36; its slot "
             "is 32)", per);

    t = ct_now();
    cpc_signal_all(cv);
    cpc_main_loop();
    fprintf(stderr, "signal_all + finish: %.0f ns/thread\n",
            (ct_now() - t) * 1e9 / n);
    CT_CHECK(cpc_condvar_count(cv) == 0, "count %d", cpc_condvar_count(cv));

    /* Wake-up order, with frames. */
    for (int i = 0; i < n / 10; i++)
        checker__spawn(i);
    cpc_main_loop();
    cpc_signal_all(cv);
    cpc_main_loop();
    CT_CHECK(woken == n / 10, "woken %d", woken);
    cpc_condvar_release(cv);
    CT_OUT("%d idle threads woken; %d more woken in wait order\n", n, n / 10);
    return 0;
}
