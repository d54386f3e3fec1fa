/* cpc_signal wakes the first waiter: waiters wake in the order they
   waited, one per signal, and cpc_condvar_count follows. */
#include "cps_test.h"

static cpc_condvar *cv;

CPC_FRAMES_BEGIN
struct signaller__frame_1 { int i; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void waiter(int id) { cpc_wait(cv); printf("woken %d\n", id); } */
CT_DEFINE_WAITER(cv)

/* cps void signaller(void)
   { for (int i = 0; i < 5; i++) { cpc_yield(); print count; cpc_signal(cv); } } */
static cpc_continuation *signaller__body(cpc_continuation *k, int cpc_resume);
static cpc_continuation *signaller__resume_1(cpc_continuation *k)
{
    return signaller__body(k, 1);
}
static cpc_continuation *signaller__cps(cpc_continuation *k)
{
    return signaller__body(k, 0);
}
static cpc_continuation *signaller__body(cpc_continuation *k, int cpc_resume)
{
    int i;
    switch (cpc_resume) {
    case 1: goto signaller__resumed_1;
    }
    for (i = 0; i < 5; i++) {
        {
            struct signaller__frame_1 *cpc_f = CPC_PUSH(k, struct signaller__frame_1);
            cpc_f->i = i;
            cpc_f->cpc_fn = signaller__resume_1;
            return cpc_yield__cps(k);
        }
    signaller__resumed_1: {
            struct signaller__frame_1 *cpc_f = CPC_POP(k, struct signaller__frame_1);
            i = cpc_f->i;
        }
        CT_OUT("count %d, signal\n", cpc_condvar_count(cv));
        cpc_signal(cv);
    }
    CT_OUT("count %d, signal on an empty condvar\n", cpc_condvar_count(cv));
    cpc_signal(cv);
    return k;
}

CT_DEFINE_SPAWN1(waiter, int)
CT_DEFINE_SPAWN0(signaller)

int main(void)
{
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");
    for (int id = 0; id < 5; id++)
        waiter__spawn(id);
    signaller__spawn();
    cpc_main_loop();
    CT_CHECK(cpc_condvar_count(cv) == 0, "count %d", cpc_condvar_count(cv));
    cpc_condvar_release(cv);
    CT_OUT("done\n");
    return 0;
}
