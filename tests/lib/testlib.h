/* tests/lib/testlib.h -- helpers for the library tests.  Each test prints
 * lines compared with its .expected file; CHECK prints "ok: what" or
 * "FAIL: what (file:line)", so a failure shows up as a diff -- or, failed
 * with errno ENOMEM, ends the test with status 71 (CPC_EXIT_EXHAUSTED). */
#ifndef CPC_TESTLIB_H
#define CPC_TESTLIB_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cpc/cpc_lib.h>

#define CHECK(cond, what)                                               \
    do {                                                                \
        if (cond) {                                                     \
            printf("ok: %s\n", what);                                   \
        } else if (errno == ENOMEM) {                                   \
            /* memory ran out (fault injection): the test cannot go on, \
               and ends as the runtime does */                          \
            fflush(stdout);                                             \
            fprintf(stderr, "FAIL: %s (%s:%d): out of memory\n", what,  \
                    __FILE__, __LINE__);                                \
            exit(CPC_EXIT_EXHAUSTED);                                   \
        } else {                                                        \
            printf("FAIL: %s (%s:%d, errno %s)\n", what, __FILE__,      \
                   __LINE__, errno_name(errno));                        \
        }                                                               \
        fflush(stdout);                                                 \
    } while (0)

static inline long long
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline const char *
errno_name(int e)
{
    switch (e) {
    case 0: return "0";
    case EAGAIN: return "EAGAIN";
    case EBADF: return "EBADF";
    case EINVAL: return "EINVAL";
    case EPIPE: return "EPIPE";
    case ECONNRESET: return "ECONNRESET";
    case ECONNREFUSED: return "ECONNREFUSED";
    case EMSGSIZE: return "EMSGSIZE";
    case ENOTSOCK: return "ENOTSOCK";
    case ENOTCONN: return "ENOTCONN";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    case ENOPROTOOPT: return "ENOPROTOOPT";
    case ETIMEDOUT: return "ETIMEDOUT";
    case EINPROGRESS: return "EINPROGRESS";
    default: return strerror(e);
    }
}

/* What a test cannot go on without: a NULL result ends the test with a
   message saying why, and status CPC_EXIT_EXHAUSTED (the runtime's for
   running out) when errno is ENOMEM, as the library reports running out
   of memory, 1 otherwise. */
#define MUST(e) must_((e), #e)
static inline void *
must_(void *p, const char *what)
{
    if (p == NULL) {
        int e = errno;
        fprintf(stderr, "%s: %s\n", what, strerror(e));
        exit(e == ENOMEM ? CPC_EXIT_EXHAUSTED : 1);
    }
    return p;
}

/* A library call that failed with errno e where the test cannot go on if
   memory ran out: ENOMEM ends the test as MUST does; other errors are the
   caller's to report. */
static inline void
exit_if_out_of_memory(int e, const char *what)
{
    if (e == ENOMEM) {
        fprintf(stderr, "%s: %s\n", what, strerror(e));
        exit(CPC_EXIT_EXHAUSTED);
    }
}

/* pthread_create, or the test ends with the reason: status
   CPC_EXIT_EXHAUSTED when the OS thread cannot be made (EAGAIN, e.g. for
   want of memory), 1 otherwise. */
#define MUST_THREAD(t, fn, arg) must_thread_((t), (fn), (arg), #fn)
static inline void
must_thread_(pthread_t *t, void *(*fn)(void *), void *arg, const char *what)
{
    int rc = pthread_create(t, NULL, fn, arg);
    if (rc != 0) {
        fprintf(stderr, "pthread_create(%s): %s\n", what, strerror(rc));
        exit(rc == EAGAIN ? CPC_EXIT_EXHAUSTED : 1);
    }
}

/* Joining a group of threads (support/join.cpc, linked with every test):
   the spawner calls join_start() per thread, each thread join_end() when
   done, and the spawner join_wait()s. */
void join_start(void);
void join_end(void);
cps void join_wait(void);

#endif
