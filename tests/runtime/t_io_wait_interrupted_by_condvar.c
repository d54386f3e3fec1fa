/* cpc_io_wait with a condvar: a signal interrupts the wait (CPC_CONDVAR)
   and takes the thread off the fd; a later wait on the same fd still
   works; data arriving first wins over the condvar and takes the thread
   off the condvar (count back to 0). */
#include "cps_test.h"

static int p[2];
static cpc_condvar *cv;

CPC_FRAMES_BEGIN
struct reader__frame_1 { cpc_function *cpc_fn; };
struct reader__frame_2 { cpc_function *cpc_fn; };
struct control__frame_1 { cpc_function *cpc_fn; };
struct control__frame_2 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *reader__resume_2(cpc_continuation *k)
{
    struct reader__frame_2 *cpc_f = CPC_POP(k, struct reader__frame_2);
    int r;
    char c;
    CPC_RESULT(r, cpc_f);
    CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");
    CT_OUT("second wait: %s, count %d\n", ct_result_name(r, errno),
           cpc_condvar_count(cv));
    CT_CHECK(r > 0 && (r & CPC_IO_IN), "io_wait: %d", r);
    CT_CHECK(read(p[0], &c, 1) == 1, "read");
    return k;
}

static cpc_continuation *reader__resume_1(cpc_continuation *k)
{
    struct reader__frame_1 *cpc_f = CPC_POP(k, struct reader__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");
    CT_OUT("first wait: %s, count %d\n", ct_result_name(r, errno),
           cpc_condvar_count(cv));
    struct reader__frame_2 *cpc_g = CPC_PUSH(k, struct reader__frame_2);
    cpc_g->cpc_fn = reader__resume_2;
    return cpc_io_wait__cps(k, p[0], CPC_IO_IN, cv);
}

/* cps void reader(void)
   { r = cpc_io_wait(p[0], IN, cv); ...; r = cpc_io_wait(p[0], IN, cv); } */
static cpc_continuation *reader__cps(cpc_continuation *k)
{
    struct reader__frame_1 *cpc_f = CPC_PUSH(k, struct reader__frame_1);
    cpc_f->cpc_fn = reader__resume_1;
    return cpc_io_wait__cps(k, p[0], CPC_IO_IN, cv);
}
CT_DEFINE_SPAWN0(reader)

static cpc_continuation *control__resume_2(cpc_continuation *k)
{
    (void)CPC_POP(k, struct control__frame_2);
    CT_OUT("write\n");
    CT_CHECK(write(p[1], "x", 1) == 1, "write");
    return k;
}

static cpc_continuation *control__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct control__frame_1);
    CT_OUT("signal\n");
    cpc_signal(cv);
    struct control__frame_2 *cpc_g = CPC_PUSH(k, struct control__frame_2);
    cpc_g->cpc_fn = control__resume_2;
    return cpc_sleep__cps(k, 0, 20000, NULL);
}

/* cps void control(void)
   { cpc_sleep(0, 10000); cpc_signal(cv); cpc_sleep(0, 20000); write(...); } */
static cpc_continuation *control__cps(cpc_continuation *k)
{
    struct control__frame_1 *cpc_f = CPC_PUSH(k, struct control__frame_1);
    cpc_f->cpc_fn = control__resume_1;
    return cpc_sleep__cps(k, 0, 10000, NULL);
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
