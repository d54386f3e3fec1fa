/* A server that closes each descriptor after one wait keeps getting the
   same numbers back for new files: each wait on such a number must cost one
   epoll_ctl, also the first time a number comes back (the runtime guesses
   ADD from the outcome on the other numbers, instead of trying MOD first on
   every number once).  Rounds of K pipes: each round waits once on every
   read end, then closes them all, so that the next round's pipes get the
   same numbers; all in one run of the main loop (which forgets its table
   when it returns).  epoll_ctl is counted by a wrapper that replaces libc's for
   the runtime linked statically. */
#define _GNU_SOURCE
#include "cps_test.h"
#include <sys/epoll.h>
#include <sys/syscall.h>

#define K 8
#define ROUNDS 4

static int ctl_calls;

int epoll_ctl(int epfd, int op, int fd, struct epoll_event *ev)
{
    ctl_calls++;
    return (int)syscall(SYS_epoll_ctl, epfd, op, fd, ev);
}

static int p[K][2], first[K];
static int woken;

CT_DEFINE_BYTE_READER(woken)

CPC_FRAMES_BEGIN
struct driver__frame_1 { int round; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* A round's K pipes, each with a byte to read, and their readers. */
static void round_start(int round)
{
    int i;
    for (i = 0; i < K; i++) {
        CT_CHECK_ERRNO(pipe(p[i]) == 0, "pipe");
        CT_CHECK_ERRNO(write(p[i][1], "x", 1) == 1, "write");
        if (round == 0)
            first[i] = p[i][0];
        CT_CHECK(p[i][0] == first[i], "round %d: fd %d not reused (%d)",
                 round, first[i], p[i][0]);
    }
    woken = 0;
    ctl_calls = 0;
    for (i = 0; i < K; i++)
        reader__spawn(p[i][0]);
}

/* Once its readers are done: the calls the round cost, and the pipes
   closed, so that the next round's get the same numbers. */
static void round_end(int round)
{
    int i, calls = ctl_calls;
    /* Round 0 may register the scheduler's own eventfd; round 1 meets the
       reused numbers first, and one of them may pay a second call, to
       learn that numbers come back closed. */
    CT_CHECK(calls <= K + (round <= 1), "round %d: %d epoll_ctl for %d waits",
             round, calls, K);
    CT_OUT("round %d: %d waits on %s numbers\n", round, K,
           round == 0 ? "new" : "reused");
    for (i = 0; i < K; i++) {
        close(p[i][0]);
        close(p[i][1]);
    }
}

/* cps void driver(void) {
       for (round = 0; round < ROUNDS; round++) {
           round_start(round);
           do cpc_sleep(0, 1000); while (woken < K);
           round_end(round); } } */
static cpc_continuation *driver__body(cpc_continuation *k, int cpc_resume, int round);
static cpc_continuation *driver__resume_1(cpc_continuation *k) { return driver__body(k, 1, 0); }
static cpc_continuation *driver__cps(cpc_continuation *k) { return driver__body(k, 0, 0); }
static cpc_continuation *driver__body(cpc_continuation *k, int cpc_resume, int round)
{
    struct driver__frame_1 *cpc_f;
    if (cpc_resume == 1) {
        cpc_f = CPC_POP(k, struct driver__frame_1);
        round = cpc_f->round;
        if (woken < K)
            goto sleep;
        round_end(round);
        round++;
    }
    if (round == ROUNDS)
        return k;
    round_start(round);
sleep:
    cpc_f = CPC_PUSH(k, struct driver__frame_1);
    cpc_f->round = round;
    cpc_f->cpc_fn = driver__resume_1;
    return cpc_sleep__cps(k, 0, 1000, NULL);
}
CT_DEFINE_SPAWN0(driver)

int main(void)
{
    /* The epoll back-end's calls are counted (io_uring's make none). */
    setenv("CPC_IO", "epoll", 1);
    driver__spawn();
    cpc_main_loop();
    CT_OUT("done\n");
    return 0;
}
