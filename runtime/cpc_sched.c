/*
 * cpc_sched.c -- cooperative schedulers: run queue, trampoline, main
 * loop, the inbox other OS threads use, cached time, yield/done/spawn,
 * and the termination of a program's schedulers.
 *
 * A scheduler is a struct cpc_sched (cpc_internal.h): its run queue,
 * timer heap, epoll set, inbox and counters.  The default one is static
 * (cpc__sched_default) and its hot paths -- yield, signal, spawn, the
 * main loop -- reach its run queue at fixed addresses; the main loop is
 * one always-inline body instantiated twice, for the default scheduler
 * and for any other.
 *
 * The run queue is an intrusive FIFO through cpc_next (head and the address
 * of the last link, O(1) push; cpc_internal.h).  The main loop takes
 * threads one at a time from its head (a thread that yields goes to the
 * tail: round-robin) and runs each through an always-inline copy of the
 * trampoline; nothing is done per pass over the queue.  It counts down a
 * service interval in a register: every 64 switches at most (fewer while
 * that many take longer than 50 us), or when the queue empties, it looks
 * at timers, epoll and the inbox if any needs attention (sched_pass_end,
 * out of line, also the exit test), so that a yield loop delays a ready
 * fd or an expired timer by 64 switches or about 50 us of CPU at most
 * (docs/abi.md, "The run queue").
 *
 * Waking a loop.  Other OS threads (pool workers re-attaching a thread,
 * other schedulers migrating or waking one, foreign threads spawning) push
 * onto the scheduler's inbox, a lock-free stack the loop takes whole and
 * reverses (one compare-and-swap per push, one exchange per drain), and
 * write to an eventfd its loop watches through epoll -- only when the
 * inbox was empty and the loop may be blocked, since one pending wake-up
 * is enough: the loop always drains the whole inbox.
 *
 * When the loops return.  Exactly when nothing can ever run again, on any
 * scheduler: see "termination" in cpc_internal.h.  A scheduler with no
 * runnable thread, no sleeper, no fd waiter and an empty inbox parks
 * (leaves cpc__world_busy) and waits on its eventfd; work queued on it
 * counts it again.  Threads waiting only on a condvar do not keep a loop
 * alive: only a running thread could signal them.
 */
#define _GNU_SOURCE
#include "cpc_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* Weak: a static executable does not pull the dynamic loader in for it. */
#pragma weak dlsym

_Thread_local int cpc_budget = CPC_DIRECT_BUDGET;
_Thread_local struct cpc_sched *cpc__tls_sched = NULL;
_Thread_local struct cpc__pool *cpc__tls_pool = NULL;
_Thread_local struct cpc_sched *cpc__tls_home = NULL;
_Thread_local bool cpc__tls_on_default = false;
/* Outside a scheduler's loop the inline primitives of cpc_runtime.h read
   this empty run queue, whose key no condvar carries: an empty queue and a
   key that does not match already send them to the function, so they test
   nothing else.  Read-only: nothing is ever queued on it. */
const struct cpc__sched_head cpc__sched_no_loop = {
    .kind = 0,
    .cv_key = CV_KEY_DETACHED,
    .runq_head = NULL,
    .runq_tail = NULL,
};
_Thread_local struct cpc__sched_head *cpc__tls_direct = CPC__NO_LOOP;

/* The bound on the wait of a ready descriptor or an expired timer while
   threads stay runnable: switches, nanoseconds (sched_service_due). */
#define SCHED_SERVICE_SWITCHES 64
#define SCHED_SERVICE_NS 50000

struct cpc_sched cpc__sched_default = {
    .kind = CPC__KIND_SCHED,
    .cv_key = CV_MAGIC_LIVE,
    .epfd = -1,
    .wakefd = -1,
    .inbox_lock = PTHREAD_MUTEX_INITIALIZER,
    .parked = true,
    .poll_spin_max_ns = -1,
    .service_interval = SCHED_SERVICE_SWITCHES,
    .heap = &cpc__cont_heap_default,
};

/* The program's main thread is the default scheduler's thread until
   cpc_main_loop says otherwise, so that native code in main() can spawn
   without locks. */
__attribute__((constructor)) static void sched_init_main_thread(void)
{
    cpc__tls_sched = &cpc__sched_default;
    cpc__tls_on_default = true;
    cpc__tls_cv_key = CV_MAGIC_LIVE | CV_KEY_OUTSIDE;
}

/* One runtime per process: the scheduler's state is global.  A program
   holding the static runtime (libcpc.a) that also loads libcpc.so, through
   a shared library of CPC code, would have two, each with its own default
   scheduler, and threads spawned by one would never run on the other's
   loop.  Whichever copy finds that the process's cpc_main_loop is not its
   own stops the program at its start. */
__attribute__((constructor)) static void sched_check_one_runtime(void)
{
    if (dlsym == NULL)
        return;         /* a static executable: nothing else loaded */
    void *first = dlsym(RTLD_DEFAULT, "cpc_main_loop");
    if (first != NULL && first != (void *)cpc_main_loop)
        cpc__fatal("two CPC runtimes in one process: the program contains the "
                   "static runtime (libcpc.a) and loads libcpc.so (through a "
                   "shared library built with cpcc -shared); link the program "
                   "with -lcpc instead of libcpc.a (cpcc does so by itself when "
                   "it links the library)");
}

/* ---- the world: every scheduler, termination ------------------------------ */

static pthread_mutex_t world_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every live scheduler, newest first, through `next`: also how debuggers
   find them (tools/gdb/cpc-gdb.py reads this list). */
static struct cpc_sched *world_list = &cpc__sched_default;  /* world_lock */
static unsigned world_next_id = 1;                          /* world_lock */
static int world_running;       /* schedulers in their loop; world_lock */
/* world_running, readable without the lock: an idle scheduler spins for
   work only when another one runs (it is the only source of work that
   arrives within microseconds). */
static atomic_int world_running_hint;
static atomic_long world_busy;  /* see cpc_internal.h */
static _Atomic uint64_t world_epoch;

static void sched_wakeup(struct cpc_sched *s)
{
    int fd = atomic_load_explicit(&s->wakefd, memory_order_acquire);
    if (fd >= 0) {
        uint64_t one = 1;
        /* EAGAIN means the counter is saturated: a wake-up is pending. */
        ssize_t r = write(fd, &one, sizeof one);
        (void)r;
    }
}

/* Nothing can run anywhere: every loop returns. */
static void world_end_epoch(void)
{
    pthread_mutex_lock(&world_lock);
    atomic_fetch_add_explicit(&world_epoch, 1, memory_order_seq_cst);
    for (struct cpc_sched *s = world_list; s != NULL; s = s->next)
        if (!s->embedded)
            sched_wakeup(s);
    pthread_mutex_unlock(&world_lock);
}

void cpc__world_busy_add(long delta)
{
    long n = atomic_fetch_add_explicit(&world_busy, delta,
                                       memory_order_seq_cst) + delta;
    if (CPC_UNLIKELY(n <= 0)) {
        if (n < 0)
            cpc__fatal("internal error: negative count of busy schedulers");
        world_end_epoch();
    }
}

/* ---- time ---------------------------------------------------------------- */

static void sched_realtime(cpc_continuation *k, struct timespec *ts)
{
    /* Attached cps code (k != NULL, on a scheduler's thread) sees the time
       cached for the current pass; native and detached code the real
       clock. */
    struct cpc_sched *s = cpc__tls_sched;
    if (k == NULL || s == NULL) {
        clock_gettime(CLOCK_REALTIME, ts);
        return;
    }
    if (!(s->time_valid & CPC__REAL_VALID)) {
        clock_gettime(CLOCK_REALTIME, &s->real);
        s->time_valid |= CPC__REAL_VALID;
    }
    *ts = s->real;
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
    return (cpc_sched *)(void *)cpc__tls_pool;
}

/* ---- run queue and trampoline -------------------------------------------- */

void cpc__sched_thread_end(cpc_continuation *k)
{
    struct cpc__pool *pool = cpc__tls_pool;
    cpc__cont_free(k);
    if (pool != NULL) {
        cpc__pool_leave(pool);
        cpc__world_busy_add(-1);
    }
}

void cpc__sched_push_other(struct cpc_sched *s, cpc_continuation *k)
{
    sched_runq_push(s, k);
}

/* ---- inbox ---------------------------------------------------------------- */

/* s had nothing to do and is counted busy again (inbox_lock held, or
   s's own thread). */
static void sched_unpark_locked(struct cpc_sched *s)
{
    if (atomic_load_explicit(&s->parked, memory_order_relaxed)) {
        atomic_store_explicit(&s->parked, false, memory_order_relaxed);
        cpc__world_busy_add(1);
    }
}

static __attribute__((noinline)) void sched_unpark(struct cpc_sched *s)
{
    pthread_mutex_lock(&s->inbox_lock);
    sched_unpark_locked(s);
    pthread_mutex_unlock(&s->inbox_lock);
}

/* A pusher found s parked after its push: count s busy again if it still
   is and the inbox still holds threads.  An empty inbox means s's loop
   took them (sched_drain_inbox counted s again itself) and may have
   parked anew since; counting it then would keep a sleeping scheduler
   busy for ever. */
static __attribute__((noinline)) void sched_unpark_for_push(struct cpc_sched *s)
{
    pthread_mutex_lock(&s->inbox_lock);
    if (atomic_load_explicit(&s->inbox_head, memory_order_relaxed) != NULL)
        sched_unpark_locked(s);
    pthread_mutex_unlock(&s->inbox_lock);
}

/* Cold and out of line: the pushes that may call it (a spawn, a wake-up
   into an empty queue) then end in a jump here and save no register. */
CPC_COLD void cpc__sched_wake_parked(struct cpc_sched *s)
{
    sched_unpark(s);
    if (s->host_wake != NULL &&
        atomic_load_explicit(&s->driver, memory_order_relaxed) == 0)
        s->host_wake(s->host_wake_arg);
}

/* After making its inbox non-empty (a seq_cst push, or inbox_pending
   stored and a fence): wake s's thread if it may be blocked.  The eventfd
   costs a system call here and a wake-up there: it is written only then.
   Dekker with sched_sleep: we publish the work then read awake, it stores
   awake then reads the inbox; the seq_cst operations make sure one of us
   sees the other. */
static void sched_wake_if_asleep(struct cpc_sched *s)
{
    if (!atomic_load_explicit(&s->awake, memory_order_seq_cst))
        sched_wakeup(s);
}

/* Push k onto s's inbox, counting s busy if it was parked; then wake its
   loop if the inbox was empty (one pending wake-up is enough), and only
   then add `detached` to the busy count: the caller counts until s does.

   The push is one compare-and-swap on inbox_head, on a line of its own
   that the receiving loop reads between passes; no lock.  Parking is the
   one race: s's thread stores `parked` then reads the inbox (sched_park),
   we push then read `parked`, all seq_cst, so one of us sees the other;
   if we see it parked, sched_unpark_for_push takes the lock, which orders
   us after its park, and counts it busy again unless it saw our push and
   stayed, or its loop took our thread meanwhile. */
static void sched_inbox_append(struct cpc_sched *s, cpc_continuation *k,
                               long detached)
{
    cpc_continuation *old = atomic_load_explicit(&s->inbox_head,
                                                 memory_order_relaxed);
    do
        k->cpc_next = old;
    while (!atomic_compare_exchange_weak_explicit(&s->inbox_head, &old, k,
                                                  memory_order_seq_cst,
                                                  memory_order_relaxed));
    if (CPC_UNLIKELY(atomic_load_explicit(&s->parked, memory_order_seq_cst)))
        sched_unpark_for_push(s);
    if (old == NULL)
        sched_wake_if_asleep(s);
    if (detached != 0)
        cpc__world_busy_add(detached);
}

void cpc__sched_post_close(int fd)
{
    pthread_mutex_lock(&world_lock);
    for (struct cpc_sched *s = world_list; s != NULL; s = s->next) {
        if (s == cpc__tls_sched)
            continue;
        bool wake;
        pthread_mutex_lock(&s->inbox_lock);
        if (s->nclosed < CPC__CLOSED_MAX)
            s->closed_fds[s->nclosed] = fd;
        if (s->nclosed <= CPC__CLOSED_MAX)
            s->nclosed++;
        wake = !atomic_load_explicit(&s->inbox_pending, memory_order_relaxed);
        atomic_store_explicit(&s->inbox_pending, true, memory_order_relaxed);
        pthread_mutex_unlock(&s->inbox_lock);
        if (wake) {
            atomic_thread_fence(memory_order_seq_cst);
            sched_wake_if_asleep(s);
        }
    }
    pthread_mutex_unlock(&world_lock);
}

void cpc__sched_inbox_push(struct cpc_sched *s, cpc_continuation *k)
{
    sched_inbox_append(s, k, 0);
}

void cpc__sched_attach_from_pool(struct cpc_sched *s, cpc_continuation *k)
{
    sched_inbox_append(s, k, -1);
}

void cpc__sched_queue_on(struct cpc_sched *s, cpc_continuation *k)
{
    if (s == cpc__tls_sched)
        sched_runq_push(s, k);
    else
        cpc__sched_inbox_push(s, k);
}

/* Whether the inbox has threads or notices of closed descriptors (the
   test the loop makes between passes: two loads). */
static inline bool sched_inbox_maybe_pending(struct cpc_sched *s)
{
    return atomic_load_explicit(&s->inbox_head, memory_order_relaxed) !=
               NULL ||
           atomic_load_explicit(&s->inbox_pending, memory_order_relaxed);
}

/* Take the closed-descriptor notices and wake the waiters of those
   descriptors.  Returns whether there were any. */
static __attribute__((noinline)) bool sched_take_notices(struct cpc_sched *s)
{
    int closed[CPC__CLOSED_MAX];
    pthread_mutex_lock(&s->inbox_lock);
    unsigned nclosed = s->nclosed;
    if (nclosed > 0 && nclosed <= CPC__CLOSED_MAX)
        memcpy(closed, s->closed_fds, nclosed * sizeof *closed);
    s->nclosed = 0;
    atomic_store_explicit(&s->inbox_pending, false, memory_order_relaxed);
    pthread_mutex_unlock(&s->inbox_lock);
    if (nclosed > CPC__CLOSED_MAX)
        cpc__io_closed_elsewhere(s, -1);
    else
        for (unsigned i = 0; i < nclosed; i++)
            cpc__io_closed_elsewhere(s, closed[i]);
    return nclosed > 0;
}

/* Move the inbox to the run queue, oldest first, and wake the waiters of
   descriptors closed elsewhere.  Returns whether it held threads. */
static __attribute__((noinline)) bool sched_drain_inbox(struct cpc_sched *s)
{
    bool notices = false;
    if (atomic_load_explicit(&s->inbox_pending, memory_order_relaxed))
        notices = sched_take_notices(s);
    cpc_continuation *h = NULL;
    if (atomic_load_explicit(&s->inbox_head, memory_order_relaxed) != NULL)
        h = atomic_exchange_explicit(&s->inbox_head, NULL,
                                     memory_order_acquire);
    if (h == NULL)
        return s->runq.head != NULL && notices;
    /* The stack is newest first: reverse it, so that each pusher's threads
       run in the order it pushed them. */
    cpc_continuation *fifo = NULL, *last = h;
    while (h != NULL) {
        cpc_continuation *next = h->cpc_next;
        h->cpc_next = fifo;
        fifo = h;
        h = next;
    }
    sched_queue_append(&s->runq, fifo, last);
    /* A pusher that found s parked counts it busy again, but may not have
       yet: whoever of us comes first under the lock does it (the pusher
       only while the inbox holds threads: sched_unpark_for_push). */
    if (CPC_UNLIKELY(atomic_load_explicit(&s->parked, memory_order_relaxed)))
        sched_unpark(s);
    return true;
}

/* s has nothing of its own to do: park it (it leaves the busy count),
   unless its inbox holds threads, which then go to the run queue.
   Returns true when it parked.  Against sched_inbox_append: we store
   `parked` then read the inbox (seq_cst), under the lock that a pusher
   which sees `parked` takes before it unparks us. */
static bool sched_park(struct cpc_sched *s)
{
    pthread_mutex_lock(&s->inbox_lock);
    atomic_store_explicit(&s->parked, true, memory_order_seq_cst);
    if (atomic_load_explicit(&s->inbox_head, memory_order_seq_cst) != NULL ||
        atomic_load_explicit(&s->inbox_pending, memory_order_relaxed)) {
        atomic_store_explicit(&s->parked, false, memory_order_relaxed);
        pthread_mutex_unlock(&s->inbox_lock);
        sched_drain_inbox(s);
        return false;
    }
    pthread_mutex_unlock(&s->inbox_lock);
    cpc__world_busy_add(-1);
    return true;
}

/* ---- spawning ------------------------------------------------------------- */

CPC_NORETURN static CPC_COLD void sched_bad_spawn(cpc_continuation *k,
                                                  const char *what)
{
    cpc__fatal("%s: %s (push the frame that starts the thread first)",
               what, k == NULL ? "NULL continuation" : "empty continuation");
}

static inline void sched_check_spawn(cpc_continuation *k, const char *what)
{
    if (CPC_UNLIKELY(k == NULL || k->length == 0))
        sched_bad_spawn(k, what);
}

/* Spawn onto the run queue of s, which this OS thread drives.  Native
   code queueing work on an idle scheduler (before its loop runs, or
   between runs) makes it count as busy again.  A scheduler parks only
   with an empty run queue, so only a push into an empty queue needs to
   look at `parked` (off the path of every spawn but the first of a
   pass).  sched_runq_push does the same; this copy keeps the branch
   hint of spawning, which mostly finds the queue non-empty. */
static inline __attribute__((always_inline)) void
sched_spawn_local(struct cpc_sched *s, cpc_continuation *k)
{
    k->cpc_next = NULL;
    if (CPC_LIKELY(s->runq.head != NULL)) {
        *s->runq.tail = k;
        s->runq.tail = &k->cpc_next;
        return;
    }
    s->runq.head = k;
    s->runq.tail = &k->cpc_next;
    if (CPC_UNLIKELY(atomic_load_explicit(&s->parked, memory_order_relaxed)))
        cpc__sched_wake_parked(s);
}

static struct cpc_sched *sched_handle(cpc_sched *h, const char *what)
{
    if (h == NULL)
        return &cpc__sched_default;
    if (h->kind != CPC__KIND_SCHED)
        cpc__fatal("%s: %p is not a cooperative scheduler (a thread pool, or "
                   "freed)", what, (void *)h);
    return h;
}

static __attribute__((noinline)) void
sched_spawn_other(struct cpc_sched *s, cpc_continuation *k)
{
    if (s != NULL)
        sched_spawn_local(s, k);
    else    /* a pool worker spawns at home; a foreign thread, on the default */
        cpc__sched_inbox_push(cpc__tls_pool != NULL ? cpc__tls_home
                                                   : &cpc__sched_default, k);
}

void cpc_spawn_continuation(cpc_continuation *k)
{
    sched_check_spawn(k, "cpc_spawn_continuation");
    cpc__dbg_suspend(k, true);
    cpc__dbg_spawned(k, __builtin_return_address(0));
    if (CPC_LIKELY(cpc__tls_on_default))
        sched_spawn_local(&cpc__sched_default, k);     /* fixed addresses */
    else
        sched_spawn_other(cpc__tls_sched, k);
}

void cpc_spawn_continuation_on(cpc_sched *h, cpc_continuation *k)
{
    struct cpc_sched *s = h == NULL ? NULL
                                    : sched_handle(h, "cpc_spawn_continuation_on");
    sched_check_spawn(k, "cpc_spawn_continuation_on");
    cpc__dbg_suspend(k, true);
    cpc__dbg_spawned(k, __builtin_return_address(0));
    if (s == NULL || s == cpc__tls_sched)
        sched_spawn_other(cpc__tls_sched, k);
    else
        cpc__sched_inbox_push(s, k);
}

/* ---- primitives ----------------------------------------------------------- */

/* Yield on a scheduler other than the default, or detached: the OS, not
   the worker, shares the CPU between detached threads, so a detached
   thread goes on at once. */
static __attribute__((noinline)) cpc_continuation *
sched_yield_other(cpc_continuation *k, struct cpc_sched *s)
{
    if (s == NULL)
        return k;
    cpc__dbg_suspend(k, false);
    sched_runq_push(s, k);
    return NULL;
}

cpc_continuation *cpc_yield__cps(cpc_continuation *k)
{
    if (CPC_UNLIKELY(!cpc__tls_on_default))
        return sched_yield_other(k, cpc__tls_sched);
    cpc__dbg_suspend(k, false);
    /* A thread yields to others, so the queue is mostly not empty: the
       hint of sched_queue_append reversed (no jump on this path). */
    struct sched_queue *q = &cpc__sched_default.runq;
    k->cpc_next = NULL;
    if (CPC_LIKELY(q->head != NULL))
        *q->tail = k;
    else
        q->head = k;
    q->tail = &k->cpc_next;
    return NULL;
}

cpc_continuation *cpc_done__cps(cpc_continuation *k)
{
    cpc__sched_thread_end(k);
    return NULL;
}

/* ---- schedulers ----------------------------------------------------------- */

cpc_sched *cpc_scheduler_new(void)
{
    struct cpc_sched *s = aligned_alloc(_Alignof(struct cpc_sched), sizeof *s);
    if (s == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    memset(s, 0, sizeof *s);
    s->kind = CPC__KIND_SCHED;
    s->epfd = -1;
    atomic_init(&s->wakefd, -1);
    atomic_init(&s->parked, true);
    atomic_init(&s->poll_spin_max_ns, -1);
    s->service_interval = SCHED_SERVICE_SWITCHES;
    s->heap = cpc__cont_heap_new();
    if (s->heap == NULL) {
        free(s);
        errno = ENOMEM;
        return NULL;
    }
    if (cpc__io_init(s) < 0) {
        int e = errno;
        cpc__cont_heap_retire(s->heap);
        free(s);
        errno = e;
        return NULL;
    }
    pthread_mutex_init(&s->inbox_lock, NULL);
    pthread_mutex_lock(&world_lock);
    s->id = world_next_id++;
    if (s->id >= (1u << 24)) {
        pthread_mutex_unlock(&world_lock);
        cpc__fatal("cpc_scheduler_new: too many schedulers");
    }
    s->cv_key = CV_KEY_BASE | s->id;
    s->next = world_list;
    world_list = s;
    pthread_mutex_unlock(&world_lock);
    return s;
}

cpc_sched *cpc_scheduler_default(void)
{
    return &cpc__sched_default;
}

cpc_sched *cpc_scheduler_self(void)
{
    return cpc__tls_pool != NULL ? cpc__tls_home : cpc__tls_sched;
}

int cpc_scheduler_free(cpc_sched *h)
{
    struct cpc_sched *s = sched_handle(h, "cpc_scheduler_free");
    if (s == &cpc__sched_default || h == NULL) {
        errno = EINVAL;
        return -1;
    }
    if (atomic_load(&s->driver) != 0)
        cpc__fatal("cpc_scheduler_free: scheduler %p is still running",
                   (void *)s);
    pthread_mutex_lock(&s->inbox_lock);
    bool busy = atomic_load(&s->inbox_head) != NULL || s->runq.head != NULL ||
                s->tmr_n > 0 || s->io_waiters > 0;
    pthread_mutex_unlock(&s->inbox_lock);
    if (busy) {
        errno = EBUSY;
        return -1;
    }
    pthread_mutex_lock(&world_lock);
    for (struct cpc_sched **p = &world_list; *p != NULL; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    pthread_mutex_unlock(&world_lock);
    cpc__tmr_shutdown(s);
    cpc__io_shutdown(s);
    cpc__io_close(s);
    cpc__cont_heap_retire(s->heap);
    pthread_mutex_destroy(&s->inbox_lock);
    s->kind = 0;
    free(s);
    return 0;
}

/* ---- the main loop -------------------------------------------------------- */

/* Milliseconds epoll may sleep before the first timer is due (rounded up,
   so that a timer is never polled for early and spun on). */
static int sched_poll_timeout(struct cpc_sched *s)
{
    int64_t next = cpc__tmr_next(s);
    if (next < 0)
        return -1;
    int64_t delta = next - cpc__sched_now(s);
    if (delta <= 0)
        return 0;
    int64_t ms = (delta + 999999) / 1000000;
    return ms > 1000000 ? 1000000 : (int)ms;
}

/* Block in epoll for timeout_ms (-1: no limit), unless the inbox has
   work.  While blocked, s is not awake: whoever queues work writes the
   eventfd (sched_inbox_append). */
static void sched_sleep(struct cpc_sched *s, int timeout_ms)
{
    atomic_store_explicit(&s->awake, false, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    if (!sched_inbox_maybe_pending(s))
        cpc__io_poll(s, timeout_ms);
    atomic_store_explicit(&s->awake, true, memory_order_relaxed);
}

/* How long an idle scheduler watches its inbox before it blocks, when
   other schedulers run.  A wake-up through the eventfd costs tens of
   microseconds between the cores of a virtual machine (a system call on
   each side and an inter-processor interrupt); work passed back and forth
   between schedulers usually comes back sooner than this. */
#define SCHED_SPIN_NS 50000

/* Spin until the inbox has work (true), the epoch ends, or the spin time
   is over (false).  Only when another scheduler runs: alone, s could only
   be fed by pool workers and timers, which are slower than a sleep. */
static bool sched_spin_for_inbox(struct cpc_sched *s)
{
    if (atomic_load_explicit(&world_running_hint, memory_order_relaxed) < 2)
        return false;
    /* Every 64 pauses (1-3 us) the spin offers its core to other OS
       threads (sched_yield), then reads the clock.  On a machine with more
       runnable threads than cores, the thread that will hand work back
       may be waiting for this very core: a spin that kept it made every
       pass of a cross-scheduler ping-pong wait for a time slice (150 us a
       pass at a load average of 13 on 2 cores, 3-20 us with the yield).
       On an idle machine the call returns at once.  The clock is first
       read after the first block: work handed back at once is taken
       without reading it (20-60 ns on a virtual machine), and the spin
       may last one block longer than SCHED_SPIN_NS. */
    int64_t t0 = 0;
    for (unsigned i = 1;; i++) {
        if (sched_inbox_maybe_pending(s))
            return true;
        if (atomic_load_explicit(&world_epoch, memory_order_relaxed) !=
            s->run_epoch)
            return false;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        if ((i & 63) == 0) {
            sched_yield();
            int64_t now = cpc__mono_ns();
            if (t0 == 0)
                t0 = now;
            else if (now - t0 >= SCHED_SPIN_NS)
                return false;
        }
    }
}

/* ---- polling before sleeping ------------------------------------------------

   A scheduler that waits for fds and has nothing to run may poll epoll
   without blocking, for a while, before it sleeps in epoll_wait.  A
   sleeping scheduler is woken by whoever makes its fd ready -- the kernel
   on the writer's core, which pays for the wake-up and, in a virtual
   machine, an inter-processor interrupt -- and its core may have gone
   idle meanwhile.  On loopback at 100 connections, that moved ~6 us of
   work per request onto the load generator (bench/servers).  A poll
   finding work costs one system call.

   The spin adapts to the gaps between bursts of work: after an idle
   period at most poll_spin_max_ns long, the next spin may last that long
   (a spin would have caught the work); after a longer one, it halves,
   down to nothing.  A server with sparse traffic thus spins for at most
   about twice the maximum per burst, then sleeps at once, while one under
   steady load never sleeps.  The maximum is CPC_POLL_SPIN_US (default
   SCHED_POLL_SPIN_DEFAULT_US; 0 turns spinning off) or
   cpc_scheduler_set_poll_spin.  Off by default: the spin is CPU time (and
   system calls) burnt through the gaps of a server that is not saturated,
   more than the sleep and wake-up it saves cost the server
   (docs/multicore.md, section 4a). */
#define SCHED_POLL_SPIN_DEFAULT_US 0
#define SCHED_POLL_SPIN_MAX_US 1000000

/* The process-wide default maximum, from the environment (read once). */
static int64_t sched_poll_spin_default_ns(void)
{
    static _Atomic int64_t cached = -1;
    int64_t ns = atomic_load_explicit(&cached, memory_order_relaxed);
    if (ns >= 0)
        return ns;
    long us = SCHED_POLL_SPIN_DEFAULT_US;
    const char *e = getenv("CPC_POLL_SPIN_US");
    if (e != NULL && *e != '\0') {
        char *end;
        errno = 0;
        long v = strtol(e, &end, 10);
        if (*end != '\0' || errno != 0 || v < 0 || v > SCHED_POLL_SPIN_MAX_US)
            cpc__fatal("CPC_POLL_SPIN_US=%s: not a number of microseconds "
                       "from 0 to %d", e, SCHED_POLL_SPIN_MAX_US);
        us = v;
    }
    ns = (int64_t)us * 1000;
    atomic_store_explicit(&cached, ns, memory_order_relaxed);
    return ns;
}

int cpc_scheduler_set_poll_spin(cpc_sched *s, int usec)
{
    if (s == cpc_default_sched)
        s = &cpc__sched_default;
    if (cpc__is_pool(s) || usec < 0 || usec > SCHED_POLL_SPIN_MAX_US) {
        errno = EINVAL;
        return -1;
    }
    /* Read by s's own thread between passes: a relaxed store is enough,
       the new value is taken at its next idle period. */
    atomic_store_explicit(&s->poll_spin_max_ns, (int64_t)usec * 1000,
                          memory_order_relaxed);
    return 0;
}

/* Poll epoll without blocking until a thread is runnable or the inbox has
   work (true), or until s->poll_spin_ns has passed or the first timer is
   due (false). */
static bool sched_poll_spin(struct cpc_sched *s, int64_t t0)
{
    int64_t end = t0 + s->poll_spin_ns, timer = cpc__tmr_next(s);
    if (timer >= 0 && timer < end)
        end = timer;
    for (;;) {
        cpc__io_poll(s, 0);
        if (s->runq.head != NULL || sched_inbox_maybe_pending(s))
            return true;
        if (cpc__mono_ns() >= end)
            return false;
    }
}

/* Idle with fd waiters: spin, then sleep at most timeout_ms; adapt the
   next spin to how long the scheduler stayed idle. */
static void sched_idle(struct cpc_sched *s, int timeout_ms)
{
    int64_t max = atomic_load_explicit(&s->poll_spin_max_ns,
                                       memory_order_relaxed);
    if (max < 0)
        max = sched_poll_spin_default_ns();
    if (max == 0 || s->io_waiters == 0 || timeout_ms == 0) {
        sched_sleep(s, timeout_ms);
        return;
    }
    int64_t t0 = cpc__mono_ns();
    if (s->poll_spin_ns > max)
        s->poll_spin_ns = max;
    if (s->poll_spin_ns > 0 && sched_poll_spin(s, t0)) {
        s->poll_spin_ns = max;
        return;
    }
    s->time_valid = 0;
    sched_sleep(s, sched_poll_timeout(s));
    if (cpc__mono_ns() - t0 <= max)
        s->poll_spin_ns = max;
    else
        s->poll_spin_ns = s->poll_spin_ns / 2 < 1000 ? 0 : s->poll_spin_ns / 2;
}

/* Parked: wait until work is queued on s (true) or nothing can run
   anywhere any more (false). */
static bool sched_wait_parked(struct cpc_sched *s)
{
    for (;;) {
        if (atomic_load_explicit(&world_epoch, memory_order_seq_cst) !=
            s->run_epoch)
            return false;
        if (sched_inbox_maybe_pending(s) && sched_drain_inbox(s))
            return true;        /* whoever queued it counted s busy again */
        sched_sleep(s, -1);
    }
}

/* After a pass, when somebody sleeps or waits for an fd, the inbox has
   threads, or the run queue is empty: expire timers, take the inbox, poll
   epoll, and decide whether the loop is over.  Returns false when it is. */
static __attribute__((noinline)) bool sched_pass_end(struct cpc_sched *s)
{
    s->time_valid = 0;
    if (s->tmr_n > 0)
        cpc__tmr_expire(s, cpc__sched_now(s));
    if (sched_inbox_maybe_pending(s))
        sched_drain_inbox(s);
    if (s->runq.head != NULL) {
        /* Busy: only look at fds when somebody waits on one. */
        if (s->io_waiters > 0)
            cpc__io_poll(s, 0);
        return true;
    }
    s->service_at = 0;          /* idle: the next busy period is timed anew */
    int timeout = sched_poll_timeout(s);
    if (timeout < 0 && s->io_waiters == 0) {
        /* Nothing of its own can wake it.  Watch the inbox for a while
           first, still counted busy: a thread passed to another scheduler
           usually comes back within microseconds, and whoever queues it
           then touches neither the busy count nor the eventfd (parking
           and being counted again cost a read-modify-write each of the
           count every scheduler shares, and the inbox lock).  Then park,
           unless the inbox says otherwise, and wait for work or the
           end. */
        if (sched_spin_for_inbox(s)) {
            sched_drain_inbox(s);
            return true;
        }
        if (!sched_park(s))
            return true;
        return sched_wait_parked(s);
    }
    sched_idle(s, timeout);
    return true;
}

/* The service interval: how many threads run between two looks at
   timers, fds and the inbox while threads stay runnable.  At most
   SCHED_SERVICE_SWITCHES, and halved while that many take longer than
   SCHED_SERVICE_NS, so that an expired timer or a ready descriptor waits
   for at most 64 switches or about 50 us of CPU, whichever comes first
   (threads are cooperative: a thread that runs longer without a switch
   delays it by that much).  Out of line: once per interval.  Returns
   whether the loop must look now; s->service_at is the time of the
   previous look within the same busy period, 0 if unknown (sched_pass_end
   clears it when the scheduler goes idle). */
static __attribute__((noinline)) bool sched_service_due(struct cpc_sched *s)
{
    if ((s->blocked | sched_inbox_maybe_pending(s)) == 0) {
        s->service_at = 0;
        return false;
    }
    int64_t now = cpc__mono_ns();
    if (s->service_at != 0) {
        int64_t took = now - s->service_at;
        if (took > SCHED_SERVICE_NS && s->service_interval > 1)
            s->service_interval /= 2;
        else if (took < SCHED_SERVICE_NS / 2 &&
                 s->service_interval < SCHED_SERVICE_SWITCHES)
            s->service_interval *= 2;
    }
    s->service_at = now;
    return true;
}

/* Put k, taken from the run queue's head, back there. */
static __attribute__((noinline)) void
sched_runq_push_front(struct cpc_sched *s, cpc_continuation *k)
{
    cpc__dbg_suspend(k, false);
    if (s->runq.head == NULL)
        s->runq.tail = &k->cpc_next;
    k->cpc_next = s->runq.head;
    s->runq.head = k;
}

/* The end of a service interval: 0 when the loop must look at timers,
   fds and the inbox now, else the length of the next interval. */
static __attribute__((noinline)) unsigned sched_interval_end(struct cpc_sched *s)
{
    if (sched_service_due(s))
        return 0;
    s->time_valid = 0;
    return s->service_interval;
}

/* The trampoline: runs k, a thread taken from a queue, frame after frame.
   A frame's function returns NULL (the thread went somewhere), or the
   continuation to run next: the same thread (a bounce through the
   trampoline, or its frames ran out), or, in a scheduler's main
   loop, the thread a yield switched to directly (it took it from the run
   queue's head: cpc__tls_direct, cpc_runtime.h).  An empty continuation
   is a thread that ended, or one that suspended with no frame left
   (`return cpc_wait(c);` in its outermost function) and was woken:
   either way it is over.  `s` is the scheduler whose loop runs k, NULL on
   a pool worker; constant in each copy (always inlined), it says how an
   ended thread is freed without asking at run time (a scheduler's thread
   is never a pool worker: sched_enter).

   `left` (the main loop's; NULL elsewhere) counts down the service
   interval: every continuation run counts.  When it ends with a thread in
   hand and the loop must look at timers, fds and the inbox, the thread
   goes back to the head of the run queue and the trampoline returns
   false.

   The call budget bounds the direct cps calls made since it was last
   refilled, which bounds the depth of the C stack.  It is refilled when a
   continuation comes back here, not before every call: a thread that
   suspends leaves the rest of the budget to the next one, whose stack
   starts from here too.  (Refilled before the end test: skipping the
   store for a thread that ended made the spawn benchmark 4% slower.) */
static inline __attribute__((always_inline)) void
sched_thread_over(cpc_continuation *k, struct cpc_sched *s)
{
    if (s == NULL)
        cpc__sched_thread_end(k);
    else if (s == &cpc__sched_default)
        cpc__cont_free_default_inline(k);
    else
        cpc__cont_free(k);
}

static inline __attribute__((always_inline)) bool
sched_trampoline(cpc_continuation *k, struct cpc_sched *s, unsigned *left)
{
    cpc__dbg_resume(k);
    if (left != NULL && CPC_UNLIKELY(--*left == 0) &&
        (*left = sched_interval_end(s)) == 0) {
        sched_runq_push_front(s, k);
        return false;
    }
    if (CPC_UNLIKELY(k->length == 0)) {
        sched_thread_over(k, s);
        return true;
    }
    for (;;) {
        cpc__dbg_check_running(k);
        k = cpc_top_function(k)(k);
        if (CPC_LIKELY(k == NULL))      /* suspended: the common case */
            return true;
        cpc_budget = CPC_DIRECT_BUDGET;
        if (CPC_UNLIKELY(k->length == 0)) {
            sched_thread_over(k, s);
            return true;
        }
        if (left != NULL && CPC_UNLIKELY(--*left == 0) &&
            (*left = sched_interval_end(s)) == 0) {
            sched_runq_push_front(s, k);
            return false;
        }
    }
}

void cpc__sched_run(cpc_continuation *k)
{
    sched_trampoline(k, NULL, NULL);
}

/* Threads run one at a time from the head of the run queue: FIFO, so a
   thread that yields runs again after every thread queued before it
   (round-robin), and no bookkeeping is done per pass over the queue.
   The time cached for cps code (time_valid) is renewed at each look and
   each service interval. */
static inline __attribute__((always_inline)) void
sched_loop(struct cpc_sched *s)
{
    while (sched_pass_end(s)) {
        cpc_continuation *k;
        unsigned left = s->service_interval;
        s->time_valid = 0;
        while ((k = s->runq.head) != NULL) {
            s->runq.head = k->cpc_next;  /* tail is dead once head is NULL */
            if (!sched_trampoline(k, s, &left))
                break;
        }
    }
}

/* The calling OS thread becomes s's thread. */
static void sched_enter(struct cpc_sched *s)
{
    uintptr_t me = (uintptr_t)pthread_self(), none = 0;
    if (cpc__tls_pool != NULL)
        cpc__fatal("cpc_main_loop or cpc_scheduler_run called from a pool "
                   "worker");
    if (!atomic_compare_exchange_strong(&s->driver, &none, me))
        cpc__fatal("scheduler %p is already driven by %s (one OS thread "
                   "per scheduler: cpc_main_loop or cpc_scheduler_run called "
                   "twice on it)", (void *)s,
                   none == me ? "this OS thread" : "another OS thread");
    cpc__tls_sched = s;
    cpc__tls_cv_key = s->cv_key;
    cpc__tls_on_default = s == &cpc__sched_default;
    cpc__tls_heap = s->heap;
    if (s->epfd < 0)
        cpc__io_init_or_exit(s);
    atomic_store_explicit(&s->awake, true, memory_order_relaxed);
}

/* The calling OS thread goes back to scheduler prev (or none), with the
   condvar key it had (prev's, with CV_KEY_OUTSIDE unless this run was
   nested in prev's loop). */
static void sched_leave(struct cpc_sched *s, struct cpc_sched *prev,
                        uint32_t prev_key)
{
    cpc__tls_sched = prev;
    cpc__tls_cv_key = prev_key;
    cpc__tls_on_default = prev == &cpc__sched_default;
    cpc__tls_heap = prev != NULL ? prev->heap : NULL;
    /* Work queued while s was awake, and not taken, was queued without a
       wake-up: make its next loop (or its host's) see it. */
    atomic_store_explicit(&s->awake, false, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    if (sched_inbox_maybe_pending(s))
        sched_wakeup(s);
    atomic_store(&s->driver, 0);
}

static void sched_begin(struct cpc_sched *s)
{
    sched_enter(s);
    pthread_mutex_lock(&world_lock);
    world_running++;
    atomic_store_explicit(&world_running_hint, world_running,
                          memory_order_relaxed);
    pthread_mutex_unlock(&world_lock);
    sched_unpark(s);
    s->run_epoch = atomic_load_explicit(&world_epoch, memory_order_seq_cst);
}

static void sched_finish(struct cpc_sched *s, struct cpc_sched *prev,
                         uint32_t prev_key)
{
    cpc__cont_heap_flush(s->heap);
    cpc__tmr_shutdown(s);
    cpc__io_shutdown(s);
    sched_leave(s, prev, prev_key);
    pthread_mutex_lock(&world_lock);
    bool last = --world_running == 0;
    atomic_store_explicit(&world_running_hint, world_running,
                          memory_order_relaxed);
    pthread_mutex_unlock(&world_lock);
    if (last)
        cpc__pool_shutdown_default();
}

/* The two copies of the loop, each a function of its own (starting on a
   64-byte boundary, see runtime.mk): the default scheduler's reaches its
   run queue at fixed addresses. */
static __attribute__((noinline)) void sched_loop_default(void)
{
    cpc__tls_direct = (struct cpc__sched_head *)&cpc__sched_default;
    sched_loop(&cpc__sched_default);
    cpc__tls_direct = CPC__NO_LOOP;
}

static __attribute__((noinline)) void sched_loop_other(struct cpc_sched *s)
{
    cpc__tls_direct = (struct cpc__sched_head *)s;
    sched_loop(s);
    cpc__tls_direct = CPC__NO_LOOP;
}

void cpc_scheduler_run(cpc_sched *h)
{
    struct cpc_sched *s = sched_handle(h, "cpc_scheduler_run");
    struct cpc_sched *prev = cpc__tls_sched;
    uint32_t prev_key = cpc__tls_cv_key;
    struct cpc__sched_head *prev_direct = cpc__tls_direct;  /* run from native code */
    cpc__tls_direct = CPC__NO_LOOP;
    sched_begin(s);
    if (s == &cpc__sched_default)
        sched_loop_default();
    else
        sched_loop_other(s);
    sched_finish(s, prev, prev_key);
    cpc__tls_direct = prev_direct;
}

void cpc_main_loop(void)
{
    cpc_scheduler_run(&cpc__sched_default);
}

/* ---- embedding in a host event loop --------------------------------------
 *
 * A host loop (libev, libuv, ...) watches the epoll fd for reading -- the
 * scheduler's fds and its inbox eventfd are in that set, so any event
 * makes it readable -- wakes after the timeout at most, and calls
 * cpc_scheduler_run_once, which turns the main loop without ever
 * blocking: timers, inbox, fds and passes over the run queue while it
 * stays non-empty (at most SCHED_EMBED_BUDGET threads run).  Between calls the scheduler has no OS thread; the host's thread
 * is its thread during each call.  An embedded scheduler parks like any
 * other when it has nothing, but the end of an epoch does not wake it (its
 * host would call it again at once, which would count it busy, then idle,
 * and end the next epoch, for ever). */

/* Threads cpc_scheduler_run_once runs at most (passes over the run queue
   are completed) before it lets the host loop look at its own events:
   enough that the host's turn (a system call or two) costs little per
   thread, few enough that the host is not kept waiting long. */
#define SCHED_EMBED_BUDGET 16384

int cpc_scheduler_backend_fd(cpc_sched *h)
{
    struct cpc_sched *s = sched_handle(h, "cpc_scheduler_backend_fd");
    if (s->epfd < 0 && cpc__io_init(s) < 0)
        return -1;
    /* The host loop watches this fd: the waits must all be in it. */
    cpc__io_use_epoll(s);
    return s->epfd;
}

int cpc_scheduler_backend_timeout(cpc_sched *h)
{
    struct cpc_sched *s = sched_handle(h, "cpc_scheduler_backend_timeout");
    if (s->runq.head != NULL || sched_inbox_maybe_pending(s))
        return 0;
    s->time_valid = 0;
    return sched_poll_timeout(s);
}

void cpc_scheduler_set_wakeup(cpc_sched *h, void (*wake)(void *), void *arg)
{
    struct cpc_sched *s = sched_handle(h, "cpc_scheduler_set_wakeup");
    s->host_wake = wake;
    s->host_wake_arg = arg;
}

int cpc_scheduler_run_once(cpc_sched *h)
{
    struct cpc_sched *s = sched_handle(h, "cpc_scheduler_run_once");
    struct cpc_sched *prev = cpc__tls_sched;
    uint32_t prev_key = cpc__tls_cv_key;
    if (!s->embedded) {
        pthread_mutex_lock(&world_lock);
        s->embedded = true;
        pthread_mutex_unlock(&world_lock);
    }
    struct cpc__sched_head *prev_direct = cpc__tls_direct;  /* each thread once */
    cpc__tls_direct = CPC__NO_LOOP;
    sched_enter(s);
    sched_unpark(s);
    /* Turns of the main loop that never block: timers, inbox, fds (always
       on the first turn, which also clears the eventfd's count), then
       passes over the run queue; until it stays empty, or the budget is
       spent. */
    int budget = SCHED_EMBED_BUDGET;
    for (bool first = true; budget > 0; first = false) {
        s->time_valid = 0;
        if (s->tmr_n > 0)
            cpc__tmr_expire(s, cpc__sched_now(s));
        if (sched_inbox_maybe_pending(s))
            sched_drain_inbox(s);
        if (first || s->io_waiters > 0)
            cpc__io_poll(s, 0);
        if (s->runq.head == NULL)
            break;
        do {
            cpc_continuation *k = s->runq.head;
            s->runq.head = NULL;
            s->time_valid = 0;
            do {
                cpc_continuation *next = k->cpc_next;
                sched_trampoline(k, s, NULL);
                k = next;
                budget--;
            } while (k != NULL);
        } while (s->runq.head != NULL && budget > 0 &&
                 (s->blocked | sched_inbox_maybe_pending(s)) == 0);
    }
    if (s->runq.head == NULL && s->blocked == 0)
        sched_park(s);
    sched_leave(s, prev, prev_key);
    cpc__tls_direct = prev_direct;
    return !atomic_load_explicit(&s->parked, memory_order_relaxed) ||
           atomic_load_explicit(&world_busy, memory_order_seq_cst) > 0;
}
