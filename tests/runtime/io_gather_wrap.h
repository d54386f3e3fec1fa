/* io_gather_wrap.h -- what the t_io_gather_* tests share: N pipes, a reader
   waiting on each read end, and wrappers of epoll_wait and nanosleep that
   replace libc's for the runtime linked into the test (as
   t_io_wait_reused_numbers_one_epoll_ctl wraps epoll_ctl).  The wrappers
   count the scheduler's sleeps (an epoll_wait that may block and finds
   nothing ready: it looks first without blocking), its gathering sleeps
   (nanosleep) and the reads; what arrives while the scheduler sleeps is
   the test's choice (arrive_while_sleeping, arrive_while_gathering), so
   that the runs are the same on a fast or a loaded machine. */
#ifndef IO_GATHER_WRAP_H
#define IO_GATHER_WRAP_H
#define _GNU_SOURCE
#include "cps_test.h"
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/syscall.h>

/* The wrappers drive epoll's sleeps: the tests run on the epoll back-end
   (the gathering is the same on io_uring's, which sleeps in
   io_uring_enter). */
__attribute__((constructor)) static void use_epoll(void)
{
    setenv("CPC_IO", "epoll", 1);
}

static int pipes[N_PIPES][2];
static int next_write;              /* the next pipe to write to */
static int woken;                   /* readers done */
static int sleeps, gathers;

/* Make pipe i's reader ready. */
static void arrive(int i)
{
    CT_CHECK_ERRNO(write(pipes[i][1], "x", 1) == 1, "write");
}

/* The test's: what arrives while the scheduler sleeps in epoll_wait (which
   would otherwise block for ever) and while it sleeps to gather events. */
static void arrive_while_sleeping(void);
static void arrive_while_gathering(void);

int epoll_wait(int epfd, struct epoll_event *evs, int max, int timeout)
{
    int n = (int)syscall(SYS_epoll_pwait, epfd, evs, max, 0, NULL, 8);
    if (n != 0 || timeout == 0)
        return n;
    sleeps++;
    arrive_while_sleeping();
    return (int)syscall(SYS_epoll_pwait, epfd, evs, max, timeout, NULL, 8);
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    gathers++;
    arrive_while_gathering();
    return (int)syscall(SYS_nanosleep, req, rem);
}

CT_DEFINE_BYTE_READER(woken)

/* The pipes (the descriptor limit raised for them) and their readers. */
static void start_readers(void)
{
    struct rlimit rl;
    CT_CHECK_ERRNO(getrlimit(RLIMIT_NOFILE, &rl) == 0, "getrlimit");
    if (rl.rlim_cur < 2 * N_PIPES + 64 && rl.rlim_max >= 2 * N_PIPES + 64) {
        rl.rlim_cur = 2 * N_PIPES + 64;
        CT_CHECK_ERRNO(setrlimit(RLIMIT_NOFILE, &rl) == 0, "setrlimit");
    }
    for (int i = 0; i < N_PIPES; i++) {
        CT_CHECK_ERRNO(pipe(pipes[i]) == 0, "pipe %d", i);
        reader__spawn(pipes[i][0]);
    }
}

#endif
