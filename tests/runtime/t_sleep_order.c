/* cpc_sleep: sleepers wake in deadline order, equal deadlines in the order
   they went to sleep, never early, and cpc_sleep returns CPC_TIMEOUT. */
#include "cps_test.h"

static double t0;

CPC_FRAMES_BEGIN
struct sleeper__frame_1 { int id; int ms; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *sleeper__resume_1(cpc_continuation *k)
{
    struct sleeper__frame_1 *cpc_f = CPC_POP(k, struct sleeper__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    double elapsed = ct_now() - t0;
    CT_CHECK(r == CPC_TIMEOUT, "cpc_sleep returned %d", r);
    /* Never early, by no margin: the deadline was taken from the
       monotonic clock after t0, and the thread woke once it passed. */
    CT_CHECK(elapsed >= cpc_f->ms * 1e-3,
             "thread %d slept %.6fs instead of %dms", cpc_f->id, elapsed,
             cpc_f->ms);
    CT_OUT("thread %d woke (%d ms)\n", cpc_f->id, cpc_f->ms);
    return k;
}

/* cps void sleeper(int id, int ms) { int r = cpc_sleep(0, ms * 1000); ... } */
static cpc_continuation *sleeper__cps(cpc_continuation *k, int id, int ms)
{
    struct sleeper__frame_1 *cpc_f = CPC_PUSH(k, struct sleeper__frame_1);
    cpc_f->id = id;
    cpc_f->ms = ms;
    cpc_f->cpc_fn = sleeper__resume_1;
    return cpc_sleep__cps(k, 0, ms * 1000, NULL);
}
CT_DEFINE_SPAWN2(sleeper, int, int)

int main(void)
{
    static const int ms[] = { 60, 20, 40, 20, 20, 0, 1 };
    t0 = ct_now();
    for (int i = 0; i < (int)(sizeof ms / sizeof ms[0]); i++)
        sleeper__spawn(i, ms[i]);
    cpc_main_loop();
    CT_OUT("done\n");
    return 0;
}
