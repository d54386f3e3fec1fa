/* cpc_sleep with a condvar: a signal interrupts the sleep (CPC_CONDVAR,
   long before the deadline); without a signal it times out and leaves the
   condvar (CPC_TIMEOUT, count back to 0). */
#include "cps_test.h"

static cpc_condvar *cv;
static double t0;

CPC_FRAMES_BEGIN
struct sleeper__frame_1 { int id; cpc_function *cpc_fn; };
struct control__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *sleeper__resume_1(cpc_continuation *k)
{
    struct sleeper__frame_1 *cpc_f = CPC_POP(k, struct sleeper__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    CT_OUT("sleeper %d: %s, count %d\n", cpc_f->id,
           r == CPC_TIMEOUT ? "timeout" : r == CPC_CONDVAR ? "condvar" : "?",
           cpc_condvar_count(cv));
    return k;
}

/* cps void sleeper(int id, int ms) { int r = cpc_sleep(0, ms*1000, cv); } */
static cpc_continuation *sleeper__cps(cpc_continuation *k, int id, int ms)
{
    struct sleeper__frame_1 *cpc_f = CPC_PUSH(k, struct sleeper__frame_1);
    cpc_f->id = id;
    cpc_f->cpc_fn = sleeper__resume_1;
    return cpc_sleep__cps(k, ms / 1000, (ms % 1000) * 1000, cv);
}
CT_DEFINE_SPAWN2(sleeper, int, int)

static cpc_continuation *control__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct control__frame_1);
    CT_OUT("signal (count %d)\n", cpc_condvar_count(cv));
    cpc_signal(cv);
    return k;
}

/* cps void control(void) { cpc_sleep(0, 30000); cpc_signal(cv); } */
static cpc_continuation *control__cps(cpc_continuation *k)
{
    struct control__frame_1 *cpc_f = CPC_PUSH(k, struct control__frame_1);
    cpc_f->cpc_fn = control__resume_1;
    return cpc_sleep__cps(k, 0, 30000, NULL);
}
CT_DEFINE_SPAWN0(control)

int main(void)
{
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");
    t0 = ct_now();
    sleeper__spawn(0, 10000);   /* 10 s: interrupted at 30 ms */
    sleeper__spawn(1, 10);      /* times out at 10 ms */
    control__spawn();
    cpc_main_loop();
    double elapsed = ct_now() - t0;
    CT_CHECK(elapsed < 1.0, "took %.2fs: the interrupted sleep was not "
             "removed from the timer heap", elapsed);
    cpc_condvar_release(cv);
    CT_OUT("done\n");
    return 0;
}
