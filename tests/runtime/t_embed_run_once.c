/* Driving a scheduler from a host loop (here poll(2)) with
   cpc_scheduler_backend_fd, cpc_scheduler_backend_timeout and
   cpc_scheduler_run_once: sleepers wake in order at their time, a
   yielding thread runs to its end, a thread waiting for a pipe wakes when
   the host loop's own code writes it, the host neither spins (few polls)
   nor blocks for ever, and run_once returns 0 once nothing can run. */
#include "cps_test.h"

#include <poll.h>

static int fds[2];
static double t0;
static int sleepers_done, yielder_done;

CPC_FRAMES_BEGIN
struct sleeper__frame { int ms; cpc_function *cpc_fn; };
struct yielder__frame { int n; cpc_function *cpc_fn; };
struct reader__frame { cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void sleeper(int ms) { cpc_sleep(0, ms * 1000); print; } */
static cpc_continuation *sleeper__resume(cpc_continuation *k)
{
    struct sleeper__frame *f = CPC_POP(k, struct sleeper__frame);
    double waited = (ct_now() - t0) * 1000;
    CT_CHECK(waited >= f->ms - 1, "woke after %.1f ms, not %d", waited, f->ms);
    CT_OUT("sleeper %d ms woke\n", f->ms);
    sleepers_done++;
    return k;
}
static cpc_continuation *sleeper__cps(cpc_continuation *k, int ms)
{
    struct sleeper__frame *f = CPC_PUSH(k, struct sleeper__frame);
    f->ms = ms;
    f->cpc_fn = sleeper__resume;
    return cpc_sleep__cps(k, 0, ms * 1000, NULL);
}
CT_DEFINE_SPAWN1(sleeper, int)

/* cps void yielder(int n) { while (n-- > 0) cpc_yield(); print; } */
static cpc_continuation *yielder__cps(cpc_continuation *k, int n);
static cpc_continuation *yielder__resume(cpc_continuation *k)
{
    struct yielder__frame *f = CPC_POP(k, struct yielder__frame);
    return yielder__cps(k, f->n);
}
static cpc_continuation *yielder__cps(cpc_continuation *k, int n)
{
    if (n == 0) {
        yielder_done = 1;
        return k;
    }
    struct yielder__frame *f = CPC_PUSH(k, struct yielder__frame);
    f->n = n - 1;
    f->cpc_fn = yielder__resume;
    return cpc_yield__cps(k);
}
CT_DEFINE_SPAWN1(yielder, int)

/* cps void reader(void) { cpc_io_wait(fds[0], CPC_IO_IN); print; } */
static cpc_continuation *reader__resume(cpc_continuation *k)
{
    struct reader__frame *f = CPC_POP(k, struct reader__frame);
    int r;
    char c;
    CPC_RESULT(r, f);
    CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");
    CT_CHECK(r > 0 && (r & CPC_IO_IN), "io_wait: %d", r);
    CT_CHECK(read(fds[0], &c, 1) == 1, "read");
    CT_OUT("reader woke: %s, read '%c'\n", ct_result_name(r, 0), c);
    return k;
}
static cpc_continuation *reader__cps(cpc_continuation *k)
{
    struct reader__frame *f = CPC_PUSH(k, struct reader__frame);
    f->cpc_fn = reader__resume;
    return cpc_io_wait__cps(k, fds[0], CPC_IO_IN, NULL);
}
CT_DEFINE_SPAWN0(reader)

int main(void)
{
    cpc_sched *s = cpc_scheduler_default();
    int polls = 0, wrote = 0;
    CT_CHECK_ERRNO(pipe(fds) == 0, "pipe");
    t0 = ct_now();
    sleeper__spawn(30);
    sleeper__spawn(10);
    yielder__spawn(100000);     /* more passes than one run_once makes */
    reader__spawn();
    int fd = cpc_scheduler_backend_fd(s);
    CT_CHECK(fd >= 0, "backend fd");
    CT_CHECK(cpc_scheduler_backend_timeout(s) == 0, "runnable threads: timeout 0");
    while (cpc_scheduler_run_once(s)) {
        int timeout = cpc_scheduler_backend_timeout(s);
        if (!wrote && sleepers_done == 2) {
            /* the host's own event: wakes the reader through the fd */
            CT_CHECK(write(fds[1], "x", 1) == 1, "write");
            wrote = 1;
        }
        if (timeout < 0 && !wrote)
            timeout = 50;       /* the host's own timer */
        struct pollfd p = { .fd = fd, .events = POLLIN };
        CT_CHECK_ERRNO(poll(&p, 1, timeout) >= 0, "poll");
        polls++;
    }
    CT_CHECK(wrote, "the loop ended before the host wrote");
    CT_CHECK(yielder_done, "the yielder did not finish");
    CT_CHECK(polls < 1000, "the host loop spun: %d polls", polls);
    CT_CHECK(cpc_scheduler_backend_timeout(s) == -1, "nothing left: timeout -1");
    close(fds[0]);
    close(fds[1]);
    CT_OUT("run_once returned 0\n");
    return 0;
}
