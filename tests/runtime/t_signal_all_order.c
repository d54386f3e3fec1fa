/* cpc_signal_all wakes every waiter, in the order they waited; waiters
   that arrive after the signal wait for the next one. */
#include "cps_test.h"

static cpc_condvar *cv;

CPC_FRAMES_BEGIN
struct signaller__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void waiter(int id) { cpc_wait(cv); printf("woken %d\n", id); } */
CT_DEFINE_WAITER(cv)
CT_DEFINE_SPAWN1(waiter, int)

static cpc_continuation *signaller__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct signaller__frame_1);
    CT_OUT("count %d, signal_all\n", cpc_condvar_count(cv));
    cpc_signal_all(cv);
    CT_OUT("count %d\n", cpc_condvar_count(cv));
    waiter__spawn(100);     /* waits after the signal: stays */
    return k;
}

/* cps void signaller(void) { cpc_yield(); ...; cpc_signal_all(cv); ... } */
static cpc_continuation *signaller__cps(cpc_continuation *k)
{
    struct signaller__frame_1 *cpc_f = CPC_PUSH(k, struct signaller__frame_1);
    cpc_f->cpc_fn = signaller__resume_1;
    return cpc_yield__cps(k);
}
CT_DEFINE_SPAWN0(signaller)

int main(void)
{
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");
    for (int id = 0; id < 6; id++)
        waiter__spawn(id);
    signaller__spawn();
    cpc_main_loop();
    /* The loop returned with one thread stranded on cv; wake it from
       native code and run the loop again. */
    CT_OUT("loop returned, count %d\n", cpc_condvar_count(cv));
    cpc_signal_all(cv);
    cpc_main_loop();
    cpc_condvar_release(cv);
    CT_OUT("done\n");
    return 0;
}
