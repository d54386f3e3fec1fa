/*
 * cpc_sched.c -- the cooperative scheduler: run queue, trampoline, main
 * loop, the inbox other OS threads use, cached time, yield/done/spawn.
 *
 * The run queue is an intrusive FIFO through cpc_next (head and the address
 * of the last link, O(1) push; cpc_internal.h).  The main loop
 * works in passes: it takes the whole queue, runs each thread once (threads
 * queued meanwhile run in the next pass, which makes yield round-robin),
 * then expires timers and polls epoll.  A pass is cheap when nothing else
 * needs attention: the loop checks an atomic "inbox pending" flag and the
 * counts of sleepers and I/O waiters inline, runs the threads through an
 * always-inline copy of the trampoline, and goes straight to the next pass
 * when the run queue is non-empty and nobody sleeps or waits for an fd;
 * everything else (timers, epoll, the exit test) is sched_pass_end, out of
 * line.
 *
 * Waking the main loop.  Other OS threads (pool workers re-attaching a
 * thread, detached code spawning, foreign threads) push onto the inbox, a
 * mutex-protected FIFO, and write to an eventfd the loop watches through
 * epoll -- only when the inbox was empty, since one pending wake-up is
 * enough: the loop always drains the whole inbox.
 *
 * When the loop returns.  Exactly when nothing can ever run again: the
 * run queue and the inbox are empty and no thread sleeps, waits for I/O or
 * is detached.  The detached count is kept under the inbox lock, so a
 * worker handing a thread back (inbox push + count decrement) is atomic
 * with respect to the exit test.  Threads waiting only on a condvar do
 * not keep the loop alive: only a running thread could signal them.
 */
#define _GNU_SOURCE
#include "cpc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

_Thread_local int cpc_budget = CPC_DIRECT_BUDGET;
_Thread_local cpc_sched *cpc__tls_pool = NULL;
_Thread_local bool cpc__tls_is_sched = false;

/* The program's main thread is the scheduler thread until cpc_main_loop
   says otherwise, so that native code in main() can spawn without locks. */
__attribute__((constructor)) static void sched_init_main_thread(void)
{
    cpc__tls_is_sched = true;
}

struct sched_queue cpc__sched_runq = { NULL, NULL };
size_t cpc__sched_blocked;

/* Inbox: the only scheduler structure other OS threads touch. */
static pthread_mutex_t sched_inbox_lock = PTHREAD_MUTEX_INITIALIZER;
static cpc_continuation *sched_inbox_head, *sched_inbox_tail;
static long sched_detached;            /* threads in pools; inbox lock */
static atomic_bool sched_inbox_pending;  /* hint: inbox non-empty */
static atomic_int sched_wake_fd = -1;    /* eventfd, created once */

/* Cached clocks, refreshed lazily once per pass: SCHED_MONO_VALID and
   SCHED_REAL_VALID bits, cleared by one store. */
#define SCHED_MONO_VALID 1u
#define SCHED_REAL_VALID 2u
static unsigned sched_time_valid;
static int64_t sched_mono_ns;
static struct timespec sched_real;

/* ---- time ---------------------------------------------------------------- */

int64_t cpc__sched_now(void)
{
    if (!(sched_time_valid & SCHED_MONO_VALID)) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sched_mono_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
        sched_time_valid |= SCHED_MONO_VALID;
    }
    return sched_mono_ns;
}

static inline void sched_invalidate_time(void)
{
    sched_time_valid = 0;
}

/* Attached cps code (k != NULL, on the scheduler thread) sees the time
   cached for the current pass; native and detached code the real clock. */
static bool sched_use_cached_time(cpc_continuation *k)
{
    return k != NULL && cpc__tls_pool == NULL && cpc__tls_is_sched;
}

static void sched_realtime(cpc_continuation *k, struct timespec *ts)
{
    if (!sched_use_cached_time(k)) {
        clock_gettime(CLOCK_REALTIME, ts);
        return;
    }
    if (!(sched_time_valid & SCHED_REAL_VALID)) {
        clock_gettime(CLOCK_REALTIME, &sched_real);
        sched_time_valid |= SCHED_REAL_VALID;
    }
    *ts = sched_real;
}

int cpc_gettimeofday(cpc_continuation *k, struct timeval *tv)
{
    struct timespec ts;
    sched_realtime(k, &ts);
    if (tv != NULL) {
        tv->tv_sec = ts.tv_sec;
        tv->tv_usec = ts.tv_nsec / 1000;
    }
    return 0;
}

time_t cpc_time(cpc_continuation *k, time_t *t)
{
    struct timespec ts;
    sched_realtime(k, &ts);
    if (t != NULL)
        *t = ts.tv_sec;
    return ts.tv_sec;
}

cpc_sched *cpc_get_sched(cpc_continuation *k)
{
    (void)k;
    return cpc__tls_pool;
}

/* ---- run queue and trampoline -------------------------------------------- */

void cpc__sched_thread_end(cpc_continuation *k)
{
    cpc_sched *pool = cpc__tls_pool;
    cpc_continuation_free(k);
    if (pool != NULL) {
        cpc__pool_leave(pool);
        cpc__sched_detached_add(-1);
    }
}

/* The trampoline.  Always inlined into the main loop; cpc__sched_run is the
   copy pool workers call.  An empty continuation is a thread that ended,
   or one that suspended with no frame left (`return cpc_wait(c);` in its
   outermost function) and was woken: either way it is over.

   The call budget bounds the direct cps calls made since it was last
   refilled, which bounds the depth of the C stack.  It is refilled when a
   bounce brings the stack back here, not before every call: a thread that
   suspends leaves the rest of the budget to the next one, whose stack
   starts from here too, so the bound holds and the common path (run,
   suspend, next thread) stores nothing. */
static inline __attribute__((always_inline)) void
sched_trampoline(cpc_continuation *k)
{
    cpc__dbg_resume(k);
    for (;;) {
        if (CPC_UNLIKELY(k->length == 0)) {
            cpc__sched_thread_end(k);
            return;
        }
        cpc__dbg_check_running(k);
        k = cpc_top_function(k)(k);
        if (CPC_LIKELY(k == NULL))      /* suspended: the common case */
            return;
        cpc_budget = CPC_DIRECT_BUDGET;
    }
}

void cpc__sched_run(cpc_continuation *k)
{
    sched_trampoline(k);
}

/* ---- inbox ---------------------------------------------------------------- */

static void sched_wakeup(void)
{
    int fd = atomic_load_explicit(&sched_wake_fd, memory_order_acquire);
    if (fd >= 0) {
        uint64_t one = 1;
        /* EAGAIN means the counter is saturated: a wake-up is pending. */
        ssize_t r = write(fd, &one, sizeof one);
        (void)r;
    }
}

/* Append k to the inbox and add `detached` to the count of detached
   threads, in one critical section; wake the loop if the inbox was empty
   (one pending wake-up is enough). */
static void sched_inbox_append(cpc_continuation *k, long detached)
{
    bool was_empty;
    k->cpc_next = NULL;
    pthread_mutex_lock(&sched_inbox_lock);
    was_empty = sched_inbox_head == NULL;
    if (sched_inbox_tail != NULL)
        sched_inbox_tail->cpc_next = k;
    else
        sched_inbox_head = k;
    sched_inbox_tail = k;
    sched_detached += detached;
    atomic_store_explicit(&sched_inbox_pending, true, memory_order_relaxed);
    pthread_mutex_unlock(&sched_inbox_lock);
    if (was_empty)
        sched_wakeup();
}

void cpc__sched_inbox_push(cpc_continuation *k)
{
    sched_inbox_append(k, 0);
}

void cpc__sched_detached_add(long delta)
{
    bool wake;
    pthread_mutex_lock(&sched_inbox_lock);
    sched_detached += delta;
    wake = sched_detached == 0;
    pthread_mutex_unlock(&sched_inbox_lock);
    /* The last detached thread ended: the loop may have nothing left. */
    if (wake && delta < 0)
        sched_wakeup();
}

void cpc__sched_attach_from_pool(cpc_continuation *k)
{
    sched_inbox_append(k, -1);
}

static inline bool sched_inbox_maybe_pending(void)
{
    return atomic_load_explicit(&sched_inbox_pending, memory_order_relaxed);
}

/* Move the inbox to the run queue.  Returns false when the loop may
   return: nothing queued anywhere and no detached thread.  Callers test
   sched_inbox_maybe_pending() first unless check_exit. */
static __attribute__((noinline)) bool sched_drain_inbox(bool check_exit)
{
    bool alive = true;
    pthread_mutex_lock(&sched_inbox_lock);
    cpc_continuation *h = sched_inbox_head, *t = sched_inbox_tail;
    sched_inbox_head = sched_inbox_tail = NULL;
    atomic_store_explicit(&sched_inbox_pending, false, memory_order_relaxed);
    if (check_exit && h == NULL && sched_detached == 0)
        alive = false;
    pthread_mutex_unlock(&sched_inbox_lock);
    if (h != NULL)
        sched_queue_append(&cpc__sched_runq, h, t);
    return alive;
}

static bool sched_has_detached(void)
{
    long n;
    pthread_mutex_lock(&sched_inbox_lock);
    n = sched_detached;
    pthread_mutex_unlock(&sched_inbox_lock);
    return n > 0;
}

/* ---- spawning ------------------------------------------------------------- */

void cpc_spawn_continuation(cpc_continuation *k)
{
    if (CPC_UNLIKELY(k == NULL || k->length == 0))
        cpc__fatal("cpc_spawn_continuation: %s (push the frame that starts "
                   "the thread first)", k == NULL ? "NULL continuation"
                                                  : "empty continuation");
    cpc__dbg_suspend(k, true);
    if (CPC_LIKELY(cpc__tls_is_sched))
        sched_runq_push(k);
    else
        cpc__sched_inbox_push(k);
}

/* ---- primitives ----------------------------------------------------------- */

cpc_continuation *cpc_yield__cps(cpc_continuation *k)
{
    /* Detached: the OS, not this worker, shares the CPU between detached
       threads, so the thread goes on at once. */
    if (CPC_UNLIKELY(cpc__tls_pool != NULL))
        return k;
    cpc__dbg_suspend(k, false);
    sched_runq_push(k);
    return NULL;
}

cpc_continuation *cpc_done__cps(cpc_continuation *k)
{
    cpc__sched_thread_end(k);
    return NULL;
}

/* ---- the main loop -------------------------------------------------------- */

static void sched_init(void)
{
    static bool done;
    cpc__tls_is_sched = true;
    if (done)
        return;
    done = true;
    cpc__io_init();
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0)
        cpc__fatal("cannot create the scheduler's eventfd: %s",
                   strerror(errno));
    cpc__io_add_wakeup_fd(fd);
    atomic_store_explicit(&sched_wake_fd, fd, memory_order_release);
}

/* Milliseconds epoll may sleep before the first timer is due (rounded up,
   so that a timer is never polled for early and spun on). */
static int sched_poll_timeout(void)
{
    int64_t next = cpc__tmr_next();
    if (next < 0)
        return -1;
    int64_t delta = next - cpc__sched_now();
    if (delta <= 0)
        return 0;
    int64_t ms = (delta + 999999) / 1000000;
    return ms > 1000000 ? 1000000 : (int)ms;
}

/* After a pass, when somebody sleeps or waits for an fd, the inbox has
   threads, or the run queue is empty: expire timers, take the inbox, poll
   epoll, and decide whether the loop is over.  Returns false when it is. */
static __attribute__((noinline)) bool sched_pass_end(void)
{
    sched_invalidate_time();
    if (cpc__tmr_n > 0)
        cpc__tmr_expire(cpc__sched_now());
    if (sched_inbox_maybe_pending())
        sched_drain_inbox(false);
    if (cpc__sched_runq.head != NULL) {
        /* Busy: only look at fds when somebody waits on one. */
        if (cpc__io_waiters > 0)
            cpc__io_poll(0);
        return true;
    }
    int timeout = sched_poll_timeout();
    if (timeout < 0 && cpc__io_waiters == 0 && !sched_has_detached()) {
        /* Nothing sleeps or waits for I/O: leave unless the inbox
           or a detached thread says otherwise (checked atomically). */
        if (!sched_drain_inbox(true))
            return false;
        if (cpc__sched_runq.head != NULL)
            return true;
    }
    cpc__io_poll(timeout);
    return true;
}

void cpc_main_loop(void)
{
    sched_init();
    cpc__pool_init_default();
    while (sched_pass_end()) {
        /* Passes: every thread runnable now runs once; threads queued
           meanwhile run in the next pass, straight away unless something
           else needs attention (sleepers, fds, the inbox). */
        while (cpc__sched_runq.head != NULL) {
            cpc_continuation *k = cpc__sched_runq.head;
            cpc__sched_runq.head = NULL;     /* tail is dead while head is NULL */
            sched_invalidate_time();
            do {
                cpc_continuation *next = k->cpc_next;
                sched_trampoline(k);
                k = next;
            } while (k != NULL);
            if (CPC_UNLIKELY((cpc__sched_blocked |
                              sched_inbox_maybe_pending()) != 0))
                break;
        }
    }
    cpc__cont_cache_flush();
    cpc__tmr_shutdown();
    cpc__io_shutdown();
    cpc__pool_shutdown_default();
}
