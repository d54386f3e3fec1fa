/* An untimed cpc_wait reaches the runtime three ways: the header sends
   cpc_wait__cps(k, c, -1, 0) -- a negative constant timeout, what
   translated code writes -- to the plain entry cpc_wait_plain__cps,
   cpc_wait_reserved__cps(k, c, -1, 0) -- what translated code writes in a
   function whose entry reserved the wait's record -- to cpc_wait_plain_reserved__cps, and any other call
   (a timeout known only at run time, the function called by its name in
   parentheses or through a pointer) to cpc_wait__cps.
   Waiters of every way share one FIFO, are woken in wait order by
   cpc_signal with the result CPC_CONDVAR, and a negative timeout never
   fires. */
#include "cps_test.h"

static cpc_condvar *cv;
static volatile int no_timeout = -1;    /* not a constant for gcc */

CPC_FRAMES_BEGIN
struct signaller__frame_1 { int i; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* (waiter's frame and its resume after the wait) */
CT_DEFINE_WAITER_RESUME()

/* cps void waiter(int id) { cpc_wait(cv) one of four ways; print; } */
static cpc_continuation *waiter__cps(cpc_continuation *k, int id)
{
    cpc_continuation *(*general)(cpc_continuation *, cpc_condvar *, int, int) =
        cpc_wait__cps;
    struct waiter__frame_1 *cpc_f;
    /* (the entry reserves the frame and the wait's record) */
    k = cpc_reserve(k, sizeof *cpc_f + CPC_WAIT_RECORD);
    cpc_f = CPC_PUSH_RESERVED(k, struct waiter__frame_1);
    cpc_f->id = id;
    cpc_f->cpc_fn = waiter__resume_1;
    switch (id % 4) {
    case 0:     /* the plain entry, through the header's macro */
        return cpc_wait__cps(k, cv, -1, 0);
    case 1:     /* the general entry: the timeout is not a constant */
        return cpc_wait__cps(k, cv, no_timeout, 0);
    case 2:     /* the function itself: by its name in parentheses, and
                   through a pointer */
        if (id < 4)
            return (cpc_wait__cps)(k, cv, -1, 0);
        return general(k, cv, -1, 0);
    default:    /* the entry without the room test, through its macro */
        return cpc_wait_reserved__cps(k, cv, -1, 0);
    }
}

/* cps void signaller(void)
   { for (int i = 0; i < 8; i++) { cpc_sleep(0, 2000); print count; cpc_signal(cv); } }
   (sleeping lets a timeout, if one were wrongly armed, fire first) */
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
    for (i = 0; i < 8; i++) {
        {
            struct signaller__frame_1 *cpc_f = CPC_PUSH(k, struct signaller__frame_1);
            cpc_f->i = i;
            cpc_f->cpc_fn = signaller__resume_1;
            return cpc_sleep__cps(k, 0, 2000, NULL);
        }
    signaller__resumed_1: {
            struct signaller__frame_1 *cpc_f = CPC_POP(k, struct signaller__frame_1);
            i = cpc_f->i;
        }
        CT_OUT("count %d, signal\n", cpc_condvar_count(cv));
        cpc_signal(cv);
    }
    return k;
}

CT_DEFINE_SPAWN1(waiter, int)
CT_DEFINE_SPAWN0(signaller)

int main(void)
{
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");
    for (int id = 0; id < 8; id++)
        waiter__spawn(id);
    signaller__spawn();
    cpc_main_loop();
    CT_CHECK(cpc_condvar_count(cv) == 0, "count %d", cpc_condvar_count(cv));
    cpc_condvar_release(cv);
    CT_OUT("done\n");
    return 0;
}
