/* A plain cpc_wait reports CPC_CONDVAR when it is signalled after a timed
   waiter next to it left the condvar by its timeout.  The timed waiter's
   departure relinks its neighbours; a plain waiter's record holds its
   result from the moment it waits, so the relinking must not touch it. */
#include "cps_test.h"

static cpc_condvar *cv;

CPC_FRAMES_BEGIN
struct waiter__frame_1 { int id; cpc_function *cpc_fn; };
struct control__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *waiter__resume_1(cpc_continuation *k)
{
    struct waiter__frame_1 *cpc_f = CPC_POP(k, struct waiter__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    if (r == CPC_TIMEOUT)
        CT_OUT("waiter %d: timeout\n", cpc_f->id);
    else if (r == CPC_CONDVAR)
        CT_OUT("waiter %d: condvar\n", cpc_f->id);
    else
        CT_OUT("waiter %d: wrong result %d\n", cpc_f->id, r);
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
    return cpc_wait__cps(k, cv, 0, ms * 1000);
}
CT_DEFINE_SPAWN2(waiter, int, int)

static cpc_continuation *control__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct control__frame_1);
    CT_OUT("after 50 ms: count %d; signal one at a time\n",
           cpc_condvar_count(cv));
    /* No timed waiter is left: these take cpc_signal's fast path. */
    cpc_signal(cv);
    cpc_signal(cv);
    cpc_signal(cv);
    return k;
}

/* cps void control(void) { cpc_sleep(0, 50000); ...; cpc_signal(cv) x3 } */
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
    waiter__spawn(0, 10);        /* the head times out: waiter 1 is relinked */
    waiter__spawn(1, -1);
    waiter__spawn(2, 10);        /* times out from the middle: 3 relinked */
    waiter__spawn(3, -1);
    waiter__spawn(4, -1);
    control__spawn();
    cpc_main_loop();
    CT_CHECK(cpc_condvar_count(cv) == 0, "count %d", cpc_condvar_count(cv));
    cpc_condvar_release(cv);
    CT_OUT("done\n");
    return 0;
}
