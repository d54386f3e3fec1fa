/* cpc_signal_fd wakes the threads waiting on an fd in the given direction,
   in wait order, with result 0; waiters on the other direction stay. */
#include "cps_test.h"

static int p[2];

CPC_FRAMES_BEGIN
struct waiter__frame_1 { int id; cpc_function *cpc_fn; };
struct control__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *waiter__resume_1(cpc_continuation *k)
{
    struct waiter__frame_1 *cpc_f = CPC_POP(k, struct waiter__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");
    CT_OUT("waiter %d: %s\n", cpc_f->id, ct_result_name(r, errno));
    return k;
}
/* cps void waiter(int id, int fd) { r = cpc_io_wait(fd, CPC_IO_IN); } */
static cpc_continuation *waiter__cps(cpc_continuation *k, int id, int fd)
{
    struct waiter__frame_1 *cpc_f = CPC_PUSH(k, struct waiter__frame_1);
    cpc_f->id = id;
    cpc_f->cpc_fn = waiter__resume_1;
    return cpc_io_wait__cps(k, fd, CPC_IO_IN, NULL);
}
CT_DEFINE_SPAWN2(waiter, int, int)

static cpc_continuation *control__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct control__frame_1);
    CT_OUT("signal_fd OUT\n");
    cpc_signal_fd(p[0], CPC_IO_OUT);
    CT_OUT("signal_fd IN\n");
    cpc_signal_fd(p[0], CPC_IO_IN);
    cpc_signal_fd(12345, CPC_IO_IN);        /* nobody waits: nothing */
    return k;
}
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
    waiter__spawn(1, p[0]);
    waiter__spawn(2, p[0]);
    control__spawn();
    cpc_main_loop();
    close(p[0]);
    close(p[1]);
    CT_OUT("done\n");
    return 0;
}
