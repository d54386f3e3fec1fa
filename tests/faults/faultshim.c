/*
 * faultshim.c -- make memory allocation fail on purpose (LD_PRELOAD).
 *
 * Loaded with LD_PRELOAD=libfaultshim.so, it replaces malloc, calloc,
 * realloc, posix_memalign, aligned_alloc, memalign and valloc with versions
 * that count the calls and make the chosen ones fail (NULL, errno ENOMEM),
 * forwarding the others to glibc's allocator (__libc_*; free is glibc's).
 * CPC_FAULT in the environment says which calls fail:
 *
 *   count         none; only count
 *   after:N       every call after the N-th (the first N succeed)
 *   at:N          the N-th call only (counting from 1)
 *   random:P:S    each call with probability P per thousand, from seed S
 *
 * unset: none.  CPC_FAULT_REPORT=FILE writes, at exit, the number of calls
 * made ("allocations N"; also on SIGTERM).  A program may also arm failures itself, for a
 * test that wants one precise allocation to fail:
 *
 *     void cpc_fault_arm(long skip, int once) __attribute__((weak));
 *     if (cpc_fault_arm) cpc_fault_arm(0, 1);  // the next call fails
 *
 * (the next `skip` calls succeed, then one fails -- or every one, when
 * once is 0); cpc_fault_arm(-1, 0) disarms.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

enum { MODE_NONE, MODE_AFTER, MODE_AT, MODE_RANDOM };

static int mode;
static long limit;                  /* after:N, at:N */
static unsigned per_mille;          /* random */
static _Atomic uint64_t rng_state;
static _Atomic long calls;
static const char *report;

/* An armed failure: calls numbered `armed_from` on fail (or only that one). */
static _Atomic long armed_from = -1;
static _Atomic int armed_once;

__attribute__((visibility("default"))) void cpc_fault_arm(long skip, int once)
{
    if (skip < 0) {
        atomic_store(&armed_from, -1);
        return;
    }
    atomic_store(&armed_once, once);
    atomic_store(&armed_from, atomic_load(&calls) + 1 + skip);
}

static void report_calls(void)
{
    FILE *f = fopen(report, "w");
    if (f != NULL) {
        fprintf(f, "allocations %ld\n", atomic_load(&calls));
        fclose(f);
    }
}

/* A server is stopped with SIGTERM: the count is written then too. */
static void report_on_sigterm(int sig)
{
    report_calls();
    signal(sig, SIG_DFL);
    raise(sig);
}

__attribute__((constructor)) static void shim_init(void)
{
    const char *e = getenv("CPC_FAULT");
    if (e != NULL) {
        if (strncmp(e, "after:", 6) == 0) {
            mode = MODE_AFTER;
            limit = atol(e + 6);
        } else if (strncmp(e, "at:", 3) == 0) {
            mode = MODE_AT;
            limit = atol(e + 3);
        } else if (strncmp(e, "random:", 7) == 0) {
            char *end;
            mode = MODE_RANDOM;
            per_mille = (unsigned)strtoul(e + 7, &end, 10);
            uint64_t seed = *end == ':' ? strtoull(end + 1, NULL, 10) : 1;
            atomic_store(&rng_state, seed * 2654435761u + 1);
        } else if (strcmp(e, "count") != 0 && *e != '\0') {
            static const char msg[] = "faultshim: CPC_FAULT must be count, "
                                      "after:N, at:N or random:P:SEED\n";
            ssize_t r = write(2, msg, sizeof msg - 1);
            (void)r;
            _exit(2);
        }
    }
    report = getenv("CPC_FAULT_REPORT");
    if (report != NULL && *report != '\0') {
        report = strdup(report);
        atexit(report_calls);
        signal(SIGTERM, report_on_sigterm);
    }
}

/* Whether the call now being made fails. */
static int should_fail(void)
{
    long n = atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed) + 1;
    long from = atomic_load_explicit(&armed_from, memory_order_relaxed);
    if (from >= 0 && n >= from) {
        if (!atomic_load(&armed_once))
            return 1;
        if (n == from)
            return 1;
    }
    switch (mode) {
    case MODE_AFTER:
        return n > limit;
    case MODE_AT:
        return n == limit;
    case MODE_RANDOM: {
        /* xorshift64*, shared by the threads (a lost update only changes
           which calls fail). */
        uint64_t x = atomic_load_explicit(&rng_state, memory_order_relaxed);
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        atomic_store_explicit(&rng_state, x, memory_order_relaxed);
        return (x * 2685821657736338717ull >> 33) % 1000 < per_mille;
    }
    default:
        return 0;
    }
}

#define API __attribute__((visibility("default")))

API void *malloc(size_t n)
{
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_malloc(n);
}

API void *calloc(size_t n, size_t m)
{
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_calloc(n, m);
}

API void *realloc(void *p, size_t n)
{
    if (n != 0 && should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_realloc(p, n);
}

API void *memalign(size_t align, size_t n)
{
    if (should_fail()) {
        errno = ENOMEM;
        return NULL;
    }
    return __libc_memalign(align, n);
}

API void *aligned_alloc(size_t align, size_t n)
{
    return memalign(align, n);
}

API int posix_memalign(void **out, size_t align, size_t n)
{
    if (align < sizeof(void *) || (align & (align - 1)) != 0)
        return EINVAL;
    void *p = memalign(align, n);
    if (p == NULL)
        return ENOMEM;
    *out = p;
    return 0;
}

API void *valloc(size_t n)
{
    return memalign((size_t)sysconf(_SC_PAGESIZE), n);
}
