/*
 * cpc_internal.h -- declarations shared by the runtime's subsystems.
 *
 * One subsystem per file, each with its own prefix:
 *
 *   cpc_continuation.c  cont_   allocation, growth, the per-size-class cache
 *   cpc_sched.c         sched_  schedulers: run queue, trampoline, main
 *                               loop, inbox, time, termination (world_)
 *   cpc_condvar.c       cv_     condition variables and their wait lists
 *   cpc_timer.c         tmr_    the binary heap of sleepers
 *   cpc_io.c            io_     epoll, per-fd wait lists
 *   cpc_pool.c          pool_   thread pools (detached mode), cpc_link
 *   cpc_park.c          park_   parking: continuations a backend keeps
 *   cpc_debug.c         dbg_    one-shot checks, symbol names, fatal errors
 *
 * Threading model.  A scheduler's state is one struct cpc_sched (below);
 * the timer, I/O and condvar code are given the scheduler they work on
 * and never call back into cpc_sched.c for its state.  Everything attached
 * to a scheduler (run queue, condvars, timers, fd tables) is touched by
 * one OS thread only, the scheduler's thread: the thread running
 * cpc_scheduler_run on it (cpc_main_loop for the default scheduler), and
 * for the default scheduler before it runs, the program's main thread.
 * Other OS threads (other schedulers, pool workers, foreign threads) reach
 * a scheduler only through its locked inbox (cpc__sched_inbox_push) and
 * never touch the rest; shared condvars have their own lock.
 */
#ifndef CPC_INTERNAL_H
#define CPC_INTERNAL_H

/* The runtime itself calls the primitives' functions (and declares the
   default scheduler with its full type). */
#define CPC__RUNTIME 1
#include "cpc/cpc_runtime.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <string.h>
#include "cpc_uring.h"

#define CPC_NORETURN __attribute__((noreturn))
#define CPC_FMT(a, b) __attribute__((format(printf, a, b)))
#define CPC_LIKELY(x) __builtin_expect(!!(x), 1)
#define CPC_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- errors (cpc_debug.c) --------------------------------------------- */

/* Print "cpc: <message>" on stderr and abort: a misuse or an internal
   error, for which a core file helps. */
CPC_NORETURN CPC_FMT(1, 2) void cpc__fatal(const char *fmt, ...);
/* Print "cpc: <message>" on stderr and exit with status
   CPC_EXIT_EXHAUSTED: memory ("out of memory ..."), descriptors or OS
   threads ran out where the interface has no way to report it (docs/abi.md,
   "Running out of memory"). */
CPC_NORETURN CPC_FMT(1, 2) void cpc__exhausted(const char *fmt, ...);
/* Name of the function at address f ("name", "name+0x12" or "0x..."),
   written into buf. */
const char *cpc__dbg_symbol_name(const void *f, char *buf, size_t len);

/* ---- thread identity (cpc_sched.c) ------------------------------------ */

struct cpc_sched;
struct cpc__pool;

/* The cooperative scheduler this OS thread drives: set while it runs
   cpc_scheduler_run (cpc_main_loop), and on the program's main thread the
   default scheduler from the start, so that native code in main() can
   spawn without locks.  NULL on pool workers and foreign threads. */
extern _Thread_local struct cpc_sched *cpc__tls_sched;
/* The pool this OS thread works for; NULL on scheduler threads and on
   foreign threads.  Non-NULL means "detached". */
extern _Thread_local struct cpc__pool *cpc__tls_pool;
/* cpc__tls_sched == &cpc__sched_default, kept as a flag: the fast paths
   (spawn, yield) test it with one compare of a TLS byte and then reach the
   default scheduler's run queue at its fixed address. */
extern _Thread_local bool cpc__tls_on_default;
/* The scheduler whose main loop's trampoline this OS thread is in, with
   no cpc_continuation_run nested in it (CPC__NO_LOOP elsewhere, never
   NULL): a primitive may return the next runnable thread of its run queue
   instead of NULL (the inline yield of cpc_runtime.h does).  Exported:
   optimised cps code reads it. */
extern _Thread_local struct cpc__sched_head *cpc__tls_direct
    __attribute__((visibility("default")));
extern const struct cpc__sched_head cpc__sched_no_loop;
#define CPC__NO_LOOP ((struct cpc__sched_head *)&cpc__sched_no_loop)
/* On a pool worker: the home scheduler of the thread it runs (where
   cpc_attach takes it back, and where it spawns). */
extern _Thread_local struct cpc_sched *cpc__tls_home;
/* What a live condvar's magic must equal for this OS thread to use it:
   the key of the scheduler it drives (CV_MAGIC_LIVE for the default one,
   and for foreign threads), CV_KEY_DETACHED on pool workers (which no
   condvar ever carries).  So the hot paths of cpc_signal and cpc_wait
   check "live condvar of this scheduler, attached thread" with one
   compare; the cold path tells which misuse it was.  A shared condvar
   (cpc_condvar_get_shared) carries CV_MAGIC_SHARED, which is nobody's
   key: every use goes to the cold path, which takes its lock.

   While the thread's scheduler is not in its loop (the main thread before
   and after cpc_main_loop, a host thread between two
   cpc_scheduler_run_once calls, cps code run by cpc_continuation_run
   there), the key also has CV_KEY_OUTSIDE set.  Only then can a thread
   queued by a signal find its scheduler parked (idle, and maybe its host
   loop asleep): the signal's fast path, which the key sends to the cold
   path in that case, never tests `parked` (the compare it already makes
   says the loop runs).  cv_own_key() is the key without the flag: what a
   condvar of this scheduler carries. */
#define CV_MAGIC_LIVE   0x43564c56u    /* "CVLV" */
#define CV_MAGIC_DEAD   0x43564444u
#define CV_KEY_DETACHED 0x44455441u    /* never a condvar's magic */
#define CV_MAGIC_SHARED 0x43565348u    /* "CVSH" */
#define CV_KEY_BASE     0x53000000u    /* | id: schedulers other than the
                                          default (id < 2^24) */
#define CV_KEY_OUTSIDE  0x80000000u    /* the scheduler is not in its loop;
                                          no magic above has this bit */
extern _Thread_local uint32_t cpc__tls_cv_key;

static inline uint32_t cv_own_key(void)
{
    return cpc__tls_cv_key & ~CV_KEY_OUTSIDE;
}

static inline bool cpc__cv_key_live(uint32_t magic)
{
    return magic == CV_MAGIC_LIVE || magic == CV_MAGIC_SHARED ||
           (magic & 0xff000000u) == CV_KEY_BASE;
}

/* Abort with a clear message when a condvar or another scheduler-only
   facility is used from a detached thread. */
static inline void cpc_require_attached(const char *what)
{
    if (CPC_UNLIKELY(cpc__tls_pool != NULL))
        cpc__fatal("%s called from a detached thread; condvars and the "
                   "scheduler's queues belong to the cooperative scheduler "
                   "(attach first with cpc_attach or cpc_attached)", what);
}

/* ---- continuations (cpc_continuation.c) ------------------------------- */

#define CPC_HEADER_SIZE offsetof(cpc_continuation, c)

/* A scheduler's continuations: its slabs and its cache of malloc'd
   blocks, used by the OS thread driving it (cpc_continuation.c). */
struct cpc__cont_heap;
extern struct cpc__cont_heap cpc__cont_heap_default;
/* The heap of the scheduler this OS thread drives; NULL on pool workers
   and foreign threads, which use malloc. */
extern _Thread_local struct cpc__cont_heap *cpc__tls_heap;
/* A heap for a new scheduler (a retired one if any); NULL, ENOMEM. */
struct cpc__cont_heap *cpc__cont_heap_new(void);
/* Give back h's cached buffers and empty slabs (the end of a run; h's
   thread, or nobody's). */
void cpc__cont_heap_flush(struct cpc__cont_heap *h);
/* Flush h and keep it for a later scheduler (cpc_scheduler_free). */
void cpc__cont_heap_retire(struct cpc__cont_heap *h);

/* ---- the wait record --------------------------------------------------
 *
 * While a thread is suspended, the bytes above its top frame belong to the
 * runtime.  A suspending primitive reserves room there (while the thread is
 * still running, so a queued continuation is never moved) and keeps its
 * wait record in it, at c[length].  Only the fields a kind of wait needs
 * are reserved: a plain cpc_wait uses 8 bytes, a timed wait 20, an I/O
 * wait 44.  The record is a packed struct: with packed frames (the runtime
 * is one library for both layouts) c[length] may be unaligned, and on
 * x86-64 an unaligned access costs nothing, so no rounding is done.
 *
 *   link    condvar wait list: the address of the cpc_next field that
 *           points to this waiter (the previous waiter's, or the condvar's
 *           head), ORed with the CPC_W_* flags saying which structures hold
 *           the thread.  Doubly linked so a thread woken by its other event
 *           leaves the condvar in O(1).  Only such "removable" waiters
 *           (W_TIMER or W_IO besides W_COND) ever read the address, so a
 *           plain waiter's link has no flag set (its first int is
 *           already its result, CPC_CONDVAR) and the back links are
 *           maintained only while a condvar has a removable waiter (see
 *           cpc_condvar.c).
 *   cv      the condvar (W_COND together with W_TIMER or W_IO).
 *   home    instead of cv, on a shared condvar: the scheduler to wake the
 *           waiter on (a plain wait on a shared condvar uses 16 bytes).
 *   heap_index  the slot in the timer heap (W_COND|W_TIMER), kept up to
 *           date by the heap so the entry is removed in O(log n).
 *   fd, io_dir, io_next, io_prev  the per-fd wait list (W_IO).
 *
 * A suspending primitive makes room for its record with cpc_reserve(k,
 * CPC_WAIT_*), which may move k.  When the thread is woken, its result (an
 * int) is written at c[length], over the record, after the record has been
 * unlinked everywhere.
 */
#define CPC_W_COND  1u
#define CPC_W_TIMER 2u
#define CPC_W_IO    4u
#define CPC_W_FLAGS 7u

struct __attribute__((packed)) cpc_wait {
    uintptr_t link;
    union {
        cpc_condvar *cv;
        struct cpc_sched *home;     /* shared condvar: the waiter's scheduler */
    };
    uint32_t heap_index;
    int32_t fd;
    cpc_continuation *io_next;
    cpc_continuation *io_prev;
    uint32_t io_dir;
};

#define CPC_WAIT_COND  offsetof(struct cpc_wait, cv)        /* 8 */
#define CPC_WAIT_SHARED offsetof(struct cpc_wait, heap_index) /* 16 */
#define CPC_WAIT_TIMED offsetof(struct cpc_wait, fd)        /* 20 */
#define CPC_WAIT_IO    sizeof(struct cpc_wait)              /* 44 */

static inline struct cpc_wait *cpc_wait_of(cpc_continuation *k)
{
    return (struct cpc_wait *)(void *)(k->c + k->length);
}

/* Store a suspended thread's int result above its top frame.  The room was
   reserved when it suspended (every record is at least 8 bytes). */
static inline void cpc_set_result(cpc_continuation *k, int v)
{
    memcpy(k->c + k->length, &v, sizeof v);
}

/* ---- schedulers (cpc_sched.c) ----------------------------------------- */

/* An intrusive FIFO through cpc_next: the run queue, a condvar's waiters.
   `tail` is the address of the last cpc_next, meaningful only while head
   is not NULL (emptying the queue is one store). */
struct sched_queue {
    cpc_continuation *head;
    cpc_continuation **tail;
};

/* The first word of a cpc_sched handle says what it is: a cooperative
   scheduler (struct cpc_sched) or a thread pool (struct cpc__pool). */
#define CPC__KIND_SCHED 0x53434844u     /* "SCHD" */
#define CPC__KIND_POOL  0x504f4f4cu     /* "POOL" */

/* The unit in which cores pass memory to each other: data that threads
   of several schedulers write is kept in lines of its own. */
#define CPC__CACHE_LINE 64

/* A cooperative scheduler: everything a group of attached threads shares,
   as libuv hangs a loop's state off uv_loop_t.  The default scheduler,
   cpc__sched_default, is a static object, so that the hot paths reach its
   run queue at fixed addresses; cpc_scheduler_new allocates others.

   Ownership.  Every field but the inbox's belongs to the OS thread
   driving the scheduler (cpc__tls_sched == s): only it runs s's threads and
   touches the run queue, timers, fd table and cached clocks, without
   locks.  Other OS threads reach s only through the inbox and the
   eventfd that wakes its loop.  Fields are described
   for debuggers too (the gdb extension reads them). */
struct cpc_sched {
    /* A scheduler takes whole cache lines (cpc_scheduler_new): its hot
       fields, written by its own thread at every switch, share no line
       with memory another scheduler's thread writes. */
    _Alignas(CPC__CACHE_LINE) uint32_t kind;    /* CPC__KIND_SCHED */
    uint32_t cv_key;              /* magic of the condvars it owns */
    struct sched_queue runq;      /* runnable threads, FIFO */
    size_t blocked;               /* tmr_n + io_waiters: one word for the
                                     main loop's test between passes */
    atomic_bool inbox_pending;    /* closed_fds has notices (inbox_lock) */
    atomic_bool parked;           /* idle, not counted in cpc__world_busy
                                     (set by its thread, cleared by
                                     whoever queues work; inbox_lock).
                                     Beside the run queue: a push into an
                                     empty queue reads it (sched_runq_push) */
    unsigned time_valid;          /* CPC__*_VALID: which cache is fresh */
    unsigned service_interval;    /* threads the main loop runs between
                                     two looks at timers, fds and the
                                     inbox: 1..SCHED_SERVICE_SWITCHES
                                     (cpc_sched.c) */
    int64_t service_at;           /* monotonic time of the last look, 0 */
    int64_t mono_ns;              /* CLOCK_MONOTONIC cached for the pass */
    struct timespec real;         /* CLOCK_REALTIME cached for the pass */

    /* The inbox's threads: a lock-free stack (newest first, through
       cpc_next) that other OS threads push onto with one compare-and-swap
       and the loop takes whole with one exchange (cpc_sched.c).  At the
       start of a cache line, away from the run queue and the clocks the
       loop writes at every pass: a pusher's compare-and-swap then does not
       disturb the loop it wakes (a cross-scheduler ping-pong took 301 ns
       a pass with it in the run queue's line, 226 ns here, on two
       hyperthreads of one core). */
    _Alignas(CPC__CACHE_LINE) _Atomic(cpc_continuation *) inbox_head;

    /* Timers (cpc_timer.c): a binary min-heap of sleepers. */
    struct cpc__tmr_entry *tmr_heap;
    size_t tmr_n, tmr_cap;        /* sleepers; heap capacity */
    uint64_t tmr_seq;             /* next sequence number (FIFO ties) */

    /* I/O (cpc_io.c): the epoll set and per-fd wait lists. */
    int epfd;                     /* -1 until the scheduler is set up */
    atomic_int wakefd;            /* eventfd other OS threads write, -1 */
    struct cpc__io_fd *io_fds;    /* indexed by fd */
    size_t io_nfds;               /* entries in io_fds */
    size_t io_waiters;            /* threads waiting for an fd */
    struct cpc__uring *ring;      /* NULL: the epoll back-end waits for
                                     every fd; else one-shot waits are
                                     polls in this io_uring, where the
                                     loop sleeps (cpc_io.c) */
    unsigned ring_fork;           /* io_fork_count when the ring was set
                                     up: a child of fork gives it up */

    /* The inbox: threads handed over by other OS threads (spawns,
       migrations, cross-scheduler wake-ups, threads leaving a pool) go
       onto inbox_head above; the lock orders parking against the pushes
       that find the scheduler parked, and guards the notices below. */
    pthread_mutex_t inbox_lock;
    /* Descriptors cpc_close closed on other schedulers (inbox_lock): the
       loop wakes its own waiters of those that are gone.  More than
       CPC__CLOSED_MAX: it checks every waited-on fd. */
#define CPC__CLOSED_MAX 16
    int closed_fds[CPC__CLOSED_MAX];
    unsigned nclosed;
    atomic_bool awake;            /* its thread is in its loop and will
                                     see inbox_head without the
                                     eventfd: whoever queues work writes
                                     the eventfd only when this is false */

    /* Driving. */
    atomic_uintptr_t driver;      /* id of the OS thread running its loop,
                                     0 when none: a second one aborts */
    uint64_t run_epoch;           /* cpc__world_epoch when its run began */
    bool embedded;                /* driven by cpc_scheduler_run_once from
                                     a host loop (not woken at the end of
                                     an epoch: its host decides) */
    unsigned id;                  /* 0 for the default, then 1, 2, ... */
    struct cpc__cont_heap *heap;  /* its continuations (cpc__tls_heap) */
    struct cpc_sched *next;       /* every scheduler: world_list, under
                                     world_lock (cpc_sched.c) */

    /* Polling before sleeping (cpc_sched.c), last: only the idle path
       reads them, and the hot fields above keep their cache lines. */
    _Atomic int64_t poll_spin_max_ns; /* longest poll before sleeping
                                     (cpc_scheduler_set_poll_spin), -1:
                                     the process default */
    int64_t poll_spin_ns;         /* the next poll's length (adaptive) */

    /* Embedding (cpc_scheduler_set_wakeup): called when native code on
       the host's thread queues work on the idle scheduler. */
    void (*host_wake)(void *);
    void *host_wake_arg;

    /* The io_uring that `ring` points to, when it is used: in place, so
       that setting up a scheduler's I/O allocates nothing. */
    struct cpc__uring ring_store;
};

/* Optimised code pushes a yielding thread onto its scheduler's run queue
   inline (cpc__tls_direct), through the public struct cpc__sched_head that
   the start of struct cpc_sched matches (cpc_runtime.h). */
extern struct cpc_sched cpc__sched_default;
_Static_assert(offsetof(struct cpc_sched, kind) ==
                   offsetof(struct cpc__sched_head, kind) &&
               offsetof(struct cpc_sched, cv_key) ==
                   offsetof(struct cpc__sched_head, cv_key) &&
               offsetof(struct cpc_sched, runq.head) ==
                   offsetof(struct cpc__sched_head, runq_head) &&
               offsetof(struct cpc_sched, runq.tail) ==
                   offsetof(struct cpc__sched_head, runq_tail),
               "struct cpc_sched starts as struct cpc__sched_head");

static inline bool cpc__is_pool(const cpc_sched *s)
{
    return *(const uint32_t *)(const void *)s == CPC__KIND_POOL;
}

/* Append the chain first..last (last->cpc_next already set) to q.  The
   branch is deliberate: with a branch-free `*tail = first` (tail = &head
   when empty) the store's address depends on a load of tail, and the
   main loop's next load of head waits for that load and the store;
   testing head -- a predicted branch -- sends the store into an empty
   queue to a known address (the yield ping-pong runs 15-20% faster). */
static inline void sched_queue_append(struct sched_queue *q,
                                      cpc_continuation *first,
                                      cpc_continuation *last)
{
    if (CPC_LIKELY(q->head == NULL))
        q->head = first;
    else
        *q->tail = first;
    q->tail = &last->cpc_next;
}
static inline void sched_queue_push(struct sched_queue *q,
                                    cpc_continuation *k)
{
    k->cpc_next = NULL;
    sched_queue_append(q, k, k);
}
/* s (this OS thread's) was parked -- idle, between runs or between two
   cpc_scheduler_run_once calls -- and native code queued a thread on it:
   count it busy again, and tell its host loop if it has one. */
void cpc__sched_wake_parked(struct cpc_sched *s);
/* Append a thread to s's run queue (s's own thread only).  Only a push
   into an empty queue can find s parked (it parks with an empty queue). */
static inline void sched_runq_push(struct cpc_sched *s, cpc_continuation *k)
{
    k->cpc_next = NULL;
    if (CPC_LIKELY(s->runq.head == NULL)) {
        s->runq.head = k;
        s->runq.tail = &k->cpc_next;
        if (CPC_UNLIKELY(atomic_load_explicit(&s->parked,
                                              memory_order_relaxed)))
            cpc__sched_wake_parked(s);
        return;
    }
    *s->runq.tail = k;
    s->runq.tail = &k->cpc_next;
}
/* Push onto the run queue of the scheduler this OS thread drives, whose
   condvar key is `key` (callers have just checked it against a condvar,
   which proves the thread attached, and its scheduler in its loop: no
   CV_KEY_OUTSIDE, so not parked).  The default scheduler's queue is
   reached at a fixed address, chosen by a compare of the key already in a
   register; others through a call. */
void cpc__sched_push_other(struct cpc_sched *s, cpc_continuation *k);
static inline void sched_push_keyed(uint32_t key, cpc_continuation *k)
{
    if (CPC_LIKELY(key == CV_MAGIC_LIVE))
        sched_queue_push(&cpc__sched_default.runq, k);
    else
        cpc__sched_push_other(cpc__tls_sched, k);
}
/* Wake a suspended thread of s (s's own thread) with result v. */
static inline void sched_wake(struct cpc_sched *s, cpc_continuation *k, int v)
{
    cpc_set_result(k, v);
    sched_runq_push(s, k);
}
/* Hand a thread to s from any OS thread: its inbox (which wakes s's loop,
   and counts s busy again if it was idle). */
void cpc__sched_inbox_push(struct cpc_sched *s, cpc_continuation *k);
/* Queue k on s: its run queue when this OS thread drives s, else its
   inbox. */
void cpc__sched_queue_on(struct cpc_sched *s, cpc_continuation *k);
/* Run a detached thread on a pool worker until it moves or ends (a yield
   returns at once); frees it when it ends. */
void cpc__sched_run(cpc_continuation *k);
/* A thread ended (outermost function returned, or cpc_done): free it and,
   when it was detached, account for it. */
void cpc__sched_thread_end(cpc_continuation *k);
/* cpc_continuation_free of a k known not to be NULL (the end of every
   thread). */
void cpc__cont_free(cpc_continuation *k);
/* The same, called on the default scheduler's own thread. */
void cpc__cont_free_default(cpc_continuation *k);

/* Slabs (cpc_continuation.c, which describes them): small continuations'
   slots, 64 KiB blocks aligned on their size with this header first.  Here
   so that the default scheduler's loop frees an ended thread's slot inline
   (cpc__cont_free_default_inline), the call being a sizeable part of a
   spawn. */
#if !defined(CPC_DEBUG) && !defined(CPC_NO_CACHE)
#define CPC_SLABS 1
#define SLAB_SIZE ((size_t)64 * 1024)

struct slab {
    void *free;                 /* freed slots, linked through word 0 */
    char *bump, *end;           /* never-used slots */
    /* Slots in use; 1 while the slab is full and on no list (!listed),
       so that a free tests one count for both reasons to take the slow
       path: the slab empties, or it was full. */
    uint32_t live;
    uint16_t slot;              /* slot size */
    bool listed;                /* current or on the partial list */
    struct slab *next, *prev;   /* partial (or empty) list */
    struct cpc__cont_heap *heap; /* whose slots these are */
};

static inline struct slab *cpc__slab_of(const void *p)
{
    return (struct slab *)((uintptr_t)p & ~(uintptr_t)(SLAB_SIZE - 1));
}

/* A slot's capacity is a multiple of 16, a malloc'd block's 8 mod 16. */
static inline bool cpc__cont_is_slot(const cpc_continuation *k)
{
    return (k->size & 8) == 0;
}

/* The slab emptied, or it was full (its live count says both). */
void cpc__slab_free_slow(struct slab *s);

/* Free slot k of s, on the OS thread that owns s's heap. */
static inline void cpc__slab_free(struct slab *s, cpc_continuation *k)
{
    *(void **)(void *)k = s->free;
    s->free = k;
    if (CPC_UNLIKELY(--s->live == 0))
        cpc__slab_free_slow(s);
}
#endif

/* cpc__cont_free_default with its common case inline: a slot of the
   default scheduler's own heap. */
static inline __attribute__((always_inline)) void
cpc__cont_free_default_inline(cpc_continuation *k)
{
#ifdef CPC_SLABS
    if (CPC_LIKELY(cpc__cont_is_slot(k))) {
        struct slab *s = cpc__slab_of(k);
        if (CPC_LIKELY(s->heap == &cpc__cont_heap_default)) {
            cpc__slab_free(s, k);
            return;
        }
    }
#endif
    cpc__cont_free_default(k);
}
/* Monotonic time in nanoseconds: now, and cached per pass of s
   (time_valid holds which clocks are fresh; the main loop clears it with
   one store). */
#define CPC__MONO_VALID 1u
#define CPC__REAL_VALID 2u
static inline int64_t cpc__mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
static inline int64_t cpc__sched_now(struct cpc_sched *s)
{
    if (!(s->time_valid & CPC__MONO_VALID)) {
        s->mono_ns = cpc__mono_ns();
        s->time_valid |= CPC__MONO_VALID;
    }
    return s->mono_ns;
}
/* Move a detached thread back to scheduler s: inbox, then one detached
   thread fewer (in that order: see cpc__world_busy). */
void cpc__sched_attach_from_pool(struct cpc_sched *s, cpc_continuation *k);

/* ---- termination (cpc_sched.c) ----------------------------------------
 *
 * cpc__world_busy counts what can still make a thread run: schedulers
 * that are not parked, and detached threads.  A scheduler parks (leaves
 * the count) when it has nothing of its own -- run queue and inbox empty,
 * no sleeper, no fd waiter -- and is counted again by whoever queues work
 * on it, under its inbox lock, before that party stops counting itself.
 * So the count is zero exactly when nothing can run anywhere: whoever
 * brings it to zero ends the epoch (cpc__world_epoch) and wakes every
 * scheduler, whose loop then returns. */
void cpc__world_busy_add(long delta);

/* ---- condvars (cpc_condvar.c) ----------------------------------------- */

/* Remove a waiter from c's list in O(1) (woken by its other event). */
void cpc__cv_unlink(cpc_condvar *c, cpc_continuation *k);
/* Append k (running, room reserved) to c's wait list. */
void cpc__cv_enqueue(cpc_condvar *c, cpc_continuation *k, uintptr_t flags);

/* ---- timers (cpc_timer.c) --------------------------------------------- */

/* sec seconds and usec microseconds, in nanoseconds. */
static inline int64_t tmr_delay_ns(int sec, int usec)
{
    return (int64_t)sec * 1000000000 + (int64_t)usec * 1000;
}
/* Queue k on s's heap to wake at monotonic time `when`; has_cv: it is
   also on a condvar and may be removed early. */
void cpc__tmr_add(struct cpc_sched *s, cpc_continuation *k, int64_t when,
                  bool has_cv);
/* Suspend k (running on s) on c and in s's heap for `delay` ns, whichever
   wakes it first: cpc_wait with a timeout, cpc_sleep with a condvar. */
cpc_continuation *cpc__tmr_wait_cv(struct cpc_sched *s, cpc_continuation *k,
                                   cpc_condvar *c, int64_t delay);
/* Remove k (W_COND|W_TIMER) from s's heap. */
void cpc__tmr_remove(struct cpc_sched *s, cpc_continuation *k);
/* Wake every sleeper of s due at `now`. */
void cpc__tmr_expire(struct cpc_sched *s, int64_t now);
/* Deadline of s's earliest sleeper, or -1. */
int64_t cpc__tmr_next(struct cpc_sched *s);
void cpc__tmr_shutdown(struct cpc_sched *s);

/* ---- I/O (cpc_io.c) --------------------------------------------------- */

/* s's epoll set and its wake-up eventfd: 0, or -1 with errno. */
int cpc__io_init(struct cpc_sched *s);
/* The same, exiting with a message on failure (nothing to report it to). */
void cpc__io_init_or_exit(struct cpc_sched *s);
/* Wait for events at most timeout_ms (-1: forever) and wake the waiters. */
void cpc__io_poll(struct cpc_sched *s, int timeout_ms);
/* Remove k (W_COND|W_IO) from its fd list on s (woken by its condvar). */
void cpc__io_unlink(struct cpc_sched *s, cpc_continuation *k);
/* Forget the fd table when nobody waits. */
void cpc__io_shutdown(struct cpc_sched *s);
/* Close the epoll set and the eventfd (cpc_scheduler_free). */
void cpc__io_close(struct cpc_sched *s);
/* fd (every waited-on fd when fd < 0) was closed by cpc_close on another
   scheduler: wake s's waiters of it with EBADF if its registration in s's
   epoll set is gone (s's thread). */
void cpc__io_closed_elsewhere(struct cpc_sched *s, int fd);
/* Wait for fds with epoll only (a host loop watches the epoll fd). */
void cpc__io_use_epoll(struct cpc_sched *s);
/* Tell every other scheduler that cpc_close closed fd (cpc_sched.c). */
void cpc__sched_post_close(int fd);

/* ---- pools (cpc_pool.c) ----------------------------------------------- */

/* Hand a thread from home scheduler `home` to pool p (any OS thread). */
void cpc__pool_push(struct cpc__pool *p, cpc_continuation *k,
                    struct cpc_sched *home);
/* A thread leaves pool p (it moved elsewhere or ended). */
void cpc__pool_leave(struct cpc__pool *p);
/* Release the default pool when the last running scheduler returns. */
void cpc__pool_shutdown_default(void);

/* ---- debug checks (cpc_debug.c; no-ops unless CPC_DEBUG) --------------- */

#ifdef CPC_DEBUG
#define CPC_MAGIC_LIVE  0xC0C0A11Fu
#define CPC_MAGIC_FREED 0xDEADC0C0u
enum {
    CPC_ST_NEW = 1,        /* fresh from cpc_continuation_new */
    CPC_ST_RUNNING,        /* being run by a trampoline */
    CPC_ST_SUSPENDED,      /* held by a queue, a condvar, the heap, ... */
    CPC_ST_FREED,
    CPC_ST_PARKED,         /* held by whoever cpc_park gave it to */
};
void cpc__dbg_init(cpc_continuation *k);
/* k is handed to a queue or a wait structure by code that owns it. */
void cpc__dbg_suspend(cpc_continuation *k, bool spawn);
/* A trampoline takes k from a queue. */
void cpc__dbg_resume(cpc_continuation *k);
/* A trampoline is about to run k's top frame. */
void cpc__dbg_check_running(cpc_continuation *k);
/* k is about to be freed: returns true if the caller must not free it
   (it went to the quarantine). */
bool cpc__dbg_free(cpc_continuation *k);
void cpc__dbg_moved(cpc_continuation *from, cpc_continuation *to);
/* Where k was spawned (a return address into the spawning code). */
#define cpc__dbg_spawned(k, site) ((k)->cpc_dbg_spawn = (site))
/* Parking (cpc_park.c): running k parks; cpc_continuation_run takes a new
   or parked k and, when k's frames run out, gives it back as new. */
void cpc__dbg_park(cpc_continuation *k);
void cpc__dbg_run_start(cpc_continuation *k);
void cpc__dbg_run_end(cpc_continuation *k);
#else
#define cpc__dbg_init(k) ((void)0)
#define cpc__dbg_suspend(k, spawn) ((void)0)
#define cpc__dbg_resume(k) ((void)0)
#define cpc__dbg_check_running(k) ((void)0)
#define cpc__dbg_free(k) false
#define cpc__dbg_moved(from, to) ((void)0)
#define cpc__dbg_spawned(k, site) ((void)0)
#define cpc__dbg_park(k) ((void)0)
#define cpc__dbg_run_start(k) ((void)0)
#define cpc__dbg_run_end(k) ((void)0)
#endif

#endif /* CPC_INTERNAL_H */
