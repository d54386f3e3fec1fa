/* An fd whose last waiter left early (interrupted by its condvar, or woken
   by cpc_signal_fd) is closed and its number reused by a new pipe: waiting
   on the new pipe must still work (the runtime re-arms epoll). */
#include "cps_test.h"

static int p[2];
static cpc_condvar *cv;

CPC_FRAMES_BEGIN
struct reader__frame { int round; cpc_function *cpc_fn; };
struct control__frame { int round; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *reader__body(cpc_continuation *k, int cpc_resume, int round);
static cpc_continuation *reader__resume_1(cpc_continuation *k) { return reader__body(k, 1, 0); }
static cpc_continuation *reader__resume_2(cpc_continuation *k) { return reader__body(k, 2, 0); }
static cpc_continuation *reader__cps(cpc_continuation *k) { return reader__body(k, 0, 0); }

/* cps void reader(void) {
       for (round = 0; round < 2; round++) {
           r = cpc_io_wait(p[0], IN, cv);     // interrupted (round 0: condvar,
                                              // round 1: cpc_signal_fd)
           close both ends; pipe(p) reuses the numbers;
           r = cpc_io_wait(p[0], IN, cv);     // data written by control
           read; } } */
static cpc_continuation *reader__body(cpc_continuation *k, int cpc_resume, int round)
{
    struct reader__frame *cpc_f;
    int r, old;
    char c;
    switch (cpc_resume) {
    case 1: goto reader__resumed_1;
    case 2: goto reader__resumed_2;
    }
    for (round = 0; round < 2; round++) {
        cpc_f = CPC_PUSH(k, struct reader__frame);
        cpc_f->round = round;
        cpc_f->cpc_fn = reader__resume_1;
        return cpc_io_wait__cps(k, p[0], CPC_IO_IN, cv);
    reader__resumed_1:
        cpc_f = CPC_POP(k, struct reader__frame);
        round = cpc_f->round;
        CPC_RESULT(r, cpc_f);
        CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");
        CT_OUT("round %d: first wait %s\n", round, ct_result_name(r, errno));
        old = p[0];
        close(p[0]);
        close(p[1]);
        CT_CHECK(pipe(p) == 0 && p[0] == old, "fd number not reused");
        cpc_f = CPC_PUSH(k, struct reader__frame);
        cpc_f->round = round;
        cpc_f->cpc_fn = reader__resume_2;
        return cpc_io_wait__cps(k, p[0], CPC_IO_IN, cv);
    reader__resumed_2:
        cpc_f = CPC_POP(k, struct reader__frame);
        round = cpc_f->round;
        CPC_RESULT(r, cpc_f);
        CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");
        CT_OUT("round %d: wait on the reused fd %s\n", round, ct_result_name(r, errno));
        CT_CHECK(r > 0 && (r & CPC_IO_IN), "io_wait: %d", r);
        CT_CHECK(read(p[0], &c, 1) == 1, "read");
    }
    return k;
}
CT_DEFINE_SPAWN0(reader)

static cpc_continuation *control__body(cpc_continuation *k, int cpc_resume, int round);
static cpc_continuation *control__resume_1(cpc_continuation *k) { return control__body(k, 1, 0); }
static cpc_continuation *control__resume_2(cpc_continuation *k) { return control__body(k, 2, 0); }
static cpc_continuation *control__cps(cpc_continuation *k) { return control__body(k, 0, 0); }

/* cps void control(void) {
       for (round = 0; round < 2; round++) {
           cpc_sleep(0, 10000); round ? cpc_signal_fd(p[0], IN) : cpc_signal(cv);
           cpc_sleep(0, 10000); write(p[1], "x", 1); } } */
static cpc_continuation *control__body(cpc_continuation *k, int cpc_resume, int round)
{
    struct control__frame *cpc_f;
    switch (cpc_resume) {
    case 1: goto control__resumed_1;
    case 2: goto control__resumed_2;
    }
    for (round = 0; round < 2; round++) {
        cpc_f = CPC_PUSH(k, struct control__frame);
        cpc_f->round = round;
        cpc_f->cpc_fn = control__resume_1;
        return cpc_sleep__cps(k, 0, 10000, NULL);
    control__resumed_1:
        cpc_f = CPC_POP(k, struct control__frame);
        round = cpc_f->round;
        if (round == 0)
            cpc_signal(cv);
        else
            cpc_signal_fd(p[0], CPC_IO_IN);
        cpc_f = CPC_PUSH(k, struct control__frame);
        cpc_f->round = round;
        cpc_f->cpc_fn = control__resume_2;
        return cpc_sleep__cps(k, 0, 10000, NULL);
    control__resumed_2:
        cpc_f = CPC_POP(k, struct control__frame);
        round = cpc_f->round;
        CT_CHECK(write(p[1], "x", 1) == 1, "write");
    }
    return k;
}
CT_DEFINE_SPAWN0(control)

int main(void)
{
    CT_CHECK_ERRNO(pipe(p) == 0, "pipe");
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");
    reader__spawn();
    control__spawn();
    cpc_main_loop();
    cpc_condvar_release(cv);
    close(p[0]);
    close(p[1]);
    CT_OUT("done\n");
    return 0;
}
