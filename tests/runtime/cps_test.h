/*
 * cps_test.h -- small helpers for the runtime's hand-written cps tests.
 *
 * The tests write cps functions by hand.  t_abi_example,
 * t_yield_round_robin and t_recursion_million use the exact shape of
 * docs/abi.md, which is what bin/cpcc emits: frame structs between
 * CPC_FRAMES_BEGIN/END, `f__cps` entries that reserve room once
 * (cpc_enter, with a cold f__defer pushing a bounce frame), unchecked
 * pushes and returns (CPC_PUSH_RESERVED, cpc_return_reserved), resume
 * stubs re-entering a body, CPC_POP and CPC_RESULT.  The others, whose
 * subject is a primitive, push with the checked CPC_PUSH (also part of
 * the ABI) and reserve nothing at entry.  Only the spawn boilerplate,
 * which the translator generates identically for every
 * `cpc_spawn f(args);`, is factored into macros here; they expand to
 * cpcc's shape: cpc_continuation_new for the spawn frame, an unchecked
 * CPC_PUSH_RESERVED into it, cpc_spawn_continuation, and a start thunk
 * popping the arguments and calling f__cps.
 */
#ifndef CPS_TEST_H
#define CPS_TEST_H

#include <cpc/cpc_runtime.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Fail with a message naming the test's source line. */
#define CT_CHECK(cond, ...)                                                  \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

/* The same for a check on a call that sets errno when it fails: the
   message names errno, and ENOMEM (memory ran out, which the runtime
   reports so) ends the test with status CPC_EXIT_EXHAUSTED. */
#define CT_CHECK_ERRNO(cond, ...)                                            \
    do {                                                                     \
        if (!(cond)) {                                                       \
            int ct_errno = errno;                                            \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, " (%s)\n", strerror(ct_errno));                  \
            exit(ct_errno == ENOMEM ? CPC_EXIT_EXHAUSTED : 1);               \
        }                                                                    \
    } while (0)

/* A call returning 0 or an error number (pthread_create): the test ends
   with the reason, status CPC_EXIT_EXHAUSTED when the OS thread could not
   be made (EAGAIN). */
#define CT_CHECK_RC(call)                                                    \
    do {                                                                     \
        int ct_rc = (call);                                                  \
        if (ct_rc != 0) {                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: %s\n", __FILE__, __LINE__,      \
                    #call, strerror(ct_rc));                                 \
            exit(ct_rc == EAGAIN ? CPC_EXIT_EXHAUSTED : 1);                  \
        }                                                                    \
    } while (0)

/* Output compared with the .expected file: flushed at once, so the order
   is the order of events even when a test aborts. */
#define CT_OUT(...) (printf(__VA_ARGS__), fflush(stdout))

static inline double ct_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A fresh continuation holding one start frame (CPC_PUSH_FIRST), room
   for two: what the debug tests of the first-frame macros misuse. */
CPC_FRAMES_BEGIN
struct ct_start_args { int a0; cpc_function *cpc_fn; };
CPC_FRAMES_END

static inline cpc_continuation *ct_start_nothing(cpc_continuation *k)
{
    return k;
}

static inline cpc_continuation *ct_with_start_frame(void)
{
    cpc_continuation *k = cpc_continuation_new(2 * sizeof(struct ct_start_args));
    struct ct_start_args *a = CPC_PUSH_FIRST(k, struct ct_start_args);
    a->a0 = 1;
    a->cpc_fn = ct_start_nothing;
    return k;
}

/* Resident set size of the process, in bytes (VmRSS). */
static inline long ct_rss_bytes(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    CT_CHECK_ERRNO(f != NULL, "/proc/self/status");
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmRSS:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    fclose(f);
    CT_CHECK(kb > 0, "no VmRSS in /proc/self/status");
    return kb * 1024;
}

/* `cpc_spawn f();` -- f a cps function with no argument. */
#define CT_DEFINE_SPAWN0(f)                                                  \
    CPC_FRAMES_BEGIN                                                         \
    struct f##__spawn { cpc_function *cpc_fn; };                             \
    CPC_FRAMES_END                                                           \
    static cpc_continuation *f##__spawn_start(cpc_continuation *k)           \
    {                                                                        \
        (void)CPC_POP_FIRST(k, struct f##__spawn);                           \
        return f##__cps(k);                                                  \
    }                                                                        \
    static void f##__spawn(void)                                             \
    {                                                                        \
        cpc_continuation *cpc_sk =                                           \
            cpc_continuation_new(sizeof(struct f##__spawn));                 \
        struct f##__spawn *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct f##__spawn);      \
        cpc_a->cpc_fn = f##__spawn_start;                                    \
        cpc_spawn_continuation(cpc_sk);                                      \
    }

/* `cpc_spawn f(a0);` */
#define CT_DEFINE_SPAWN1(f, T0)                                              \
    CPC_FRAMES_BEGIN                                                         \
    struct f##__spawn { T0 a0; cpc_function *cpc_fn; };                      \
    CPC_FRAMES_END                                                           \
    static cpc_continuation *f##__spawn_start(cpc_continuation *k)           \
    {                                                                        \
        struct f##__spawn *cpc_a = CPC_POP_FIRST(k, struct f##__spawn);      \
        return f##__cps(k, cpc_a->a0);                                       \
    }                                                                        \
    static void f##__spawn(T0 a0)                                            \
    {                                                                        \
        cpc_continuation *cpc_sk =                                           \
            cpc_continuation_new(sizeof(struct f##__spawn));                 \
        struct f##__spawn *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct f##__spawn);      \
        cpc_a->a0 = a0;                                                      \
        cpc_a->cpc_fn = f##__spawn_start;                                    \
        cpc_spawn_continuation(cpc_sk);                                      \
    }

/* `cpc_spawn f(a0, a1);` */
#define CT_DEFINE_SPAWN2(f, T0, T1)                                          \
    CPC_FRAMES_BEGIN                                                         \
    struct f##__spawn { T0 a0; T1 a1; cpc_function *cpc_fn; };               \
    CPC_FRAMES_END                                                           \
    static cpc_continuation *f##__spawn_start(cpc_continuation *k)           \
    {                                                                        \
        struct f##__spawn *cpc_a = CPC_POP_FIRST(k, struct f##__spawn);      \
        return f##__cps(k, cpc_a->a0, cpc_a->a1);                            \
    }                                                                        \
    static void f##__spawn(T0 a0, T1 a1)                                     \
    {                                                                        \
        cpc_continuation *cpc_sk =                                           \
            cpc_continuation_new(sizeof(struct f##__spawn));                 \
        struct f##__spawn *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct f##__spawn);      \
        cpc_a->a0 = a0;                                                      \
        cpc_a->a1 = a1;                                                      \
        cpc_a->cpc_fn = f##__spawn_start;                                    \
        cpc_spawn_continuation(cpc_sk);                                      \
    }

/* `cpc_spawn f(a0, a1, a2);` */
#define CT_DEFINE_SPAWN3(f, T0, T1, T2)                                      \
    CPC_FRAMES_BEGIN                                                         \
    struct f##__spawn { T0 a0; T1 a1; T2 a2; cpc_function *cpc_fn; };        \
    CPC_FRAMES_END                                                           \
    static cpc_continuation *f##__spawn_start(cpc_continuation *k)           \
    {                                                                        \
        struct f##__spawn *cpc_a = CPC_POP_FIRST(k, struct f##__spawn);      \
        return f##__cps(k, cpc_a->a0, cpc_a->a1, cpc_a->a2);                 \
    }                                                                        \
    static void f##__spawn(T0 a0, T1 a1, T2 a2)                              \
    {                                                                        \
        cpc_continuation *cpc_sk =                                           \
            cpc_continuation_new(sizeof(struct f##__spawn));                 \
        struct f##__spawn *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct f##__spawn);      \
        cpc_a->a0 = a0;                                                      \
        cpc_a->a1 = a1;                                                      \
        cpc_a->a2 = a2;                                                      \
        cpc_a->cpc_fn = f##__spawn_start;                                    \
        cpc_spawn_continuation(cpc_sk);                                      \
    }

/* A wait's result r by name; e is errno after the wait (-1 with ENOMEM:
   the wait's timeout could not be allocated). */
static inline const char *ct_result_name(int r, int e)
{
    switch (r) {
    case CPC_IO_IN: return "IN";
    case CPC_IO_OUT: return "OUT";
    case CPC_IO_IN | CPC_IO_OUT: return "IN|OUT";
    case CPC_TIMEOUT: return "TIMEOUT";
    case CPC_CONDVAR: return "CONDVAR";
    case 0: return "0";
    case -1: return e == ENOMEM ? "-1 ENOMEM (out of memory)" : "-1";
    default: return "?";
    }
}

/* `cps void waiter(int id) { int r = cpc_wait(cv); printf("woken %d\n",
   id); }`, r checked to be CPC_CONDVAR: CT_DEFINE_WAITER_RESUME defines
   its frame and the resume after the wait (for a test whose entry waits
   its own way), CT_DEFINE_WAITER(cv) also the entry, an untimed wait on
   the condvar `cv`. */
#define CT_DEFINE_WAITER_RESUME()                                            \
    CPC_FRAMES_BEGIN                                                         \
    struct waiter__frame_1 { int id; cpc_function *cpc_fn; };                \
    CPC_FRAMES_END                                                           \
    static cpc_continuation *waiter__resume_1(cpc_continuation *k)           \
    {                                                                        \
        struct waiter__frame_1 *cpc_f = CPC_POP(k, struct waiter__frame_1);  \
        int r;                                                               \
        CPC_RESULT(r, cpc_f);                                                \
        CT_CHECK(r == CPC_CONDVAR, "cpc_wait returned %d", r);               \
        CT_OUT("woken %d\n", cpc_f->id);                                     \
        return k;                                                            \
    }

#define CT_DEFINE_WAITER(cv)                                                 \
    CT_DEFINE_WAITER_RESUME()                                                \
    static cpc_continuation *waiter__cps(cpc_continuation *k, int id)        \
    {                                                                        \
        struct waiter__frame_1 *cpc_f = CPC_PUSH(k, struct waiter__frame_1); \
        cpc_f->id = id;                                                      \
        cpc_f->cpc_fn = waiter__resume_1;                                    \
        return cpc_wait__cps(k, (cv), -1, 0);                                \
    }

/* `cps void reader(int fd) { cpc_io_wait(fd, CPC_IO_IN); read one byte,
   'x'; woken++; }`, the wait's result and the byte checked, and its spawn
   reader__spawn (CT_DEFINE_SPAWN1): the reader of the fd-wait tests, each
   with its own counter `woken`. */
#define CT_DEFINE_BYTE_READER(woken)                                         \
    CPC_FRAMES_BEGIN                                                         \
    struct reader__frame_1 { int fd; cpc_function *cpc_fn; };               \
    CPC_FRAMES_END                                                           \
    static cpc_continuation *reader__resume_1(cpc_continuation *k)           \
    {                                                                        \
        struct reader__frame_1 *cpc_f = CPC_POP(k, struct reader__frame_1);  \
        int r;                                                               \
        char c;                                                              \
        CPC_RESULT(r, cpc_f);                                                \
        CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");                               \
        CT_CHECK(r == CPC_IO_IN, "cpc_io_wait: %d", r);                      \
        CT_CHECK(read(cpc_f->fd, &c, 1) == 1 && c == 'x', "read");           \
        (woken)++;                                                           \
        return k;                                                            \
    }                                                                        \
    static cpc_continuation *reader__cps(cpc_continuation *k, int fd)        \
    {                                                                        \
        struct reader__frame_1 *cpc_f = CPC_PUSH(k, struct reader__frame_1); \
        cpc_f->fd = fd;                                                      \
        cpc_f->cpc_fn = reader__resume_1;                                    \
        return cpc_io_wait__cps(k, fd, CPC_IO_IN, NULL);                     \
    }                                                                        \
    CT_DEFINE_SPAWN1(reader, int)

#endif /* CPS_TEST_H */
