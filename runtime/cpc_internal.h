/*
 * cpc_internal.h -- declarations shared by the runtime's subsystems.
 *
 * One subsystem per file, each with its own prefix:
 *
 *   cpc_continuation.c  cont_   allocation, growth, the per-size-class cache
 *   cpc_sched.c         sched_  run queue, trampoline, main loop, inbox, time
 *   cpc_condvar.c       cv_     condition variables and their wait lists
 *   cpc_timer.c         tmr_    the binary heap of sleepers
 *   cpc_io.c            io_     epoll, per-fd wait lists
 *   cpc_pool.c          pool_   thread pools (detached mode)
 *   cpc_debug.c         dbg_    one-shot checks, symbol names, fatal errors
 *
 * Threading model.  Everything attached to the cooperative scheduler (run
 * queue, condvars, timers, fd tables) is touched by one OS thread only, the
 * "scheduler thread": the thread running cpc_main_loop, or before it runs,
 * the program's main thread.  Other OS threads (pool workers, foreign
 * threads) reach the scheduler only through the locked inbox
 * (cpc__sched_inbox_push) and never touch the rest.
 */
#ifndef CPC_INTERNAL_H
#define CPC_INTERNAL_H

#include "cpc/cpc_runtime.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>

#define CPC_NORETURN __attribute__((noreturn))
#define CPC_FMT(a, b) __attribute__((format(printf, a, b)))
#define CPC_LIKELY(x) __builtin_expect(!!(x), 1)
#define CPC_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* ---- errors (cpc_debug.c) --------------------------------------------- */

/* Print "cpc: <message>" on stderr and abort. */
CPC_NORETURN CPC_FMT(1, 2) void cpc__fatal(const char *fmt, ...);
/* Name of the function at address f ("name", "name+0x12" or "0x..."),
   written into buf. */
const char *cpc__dbg_symbol_name(const void *f, char *buf, size_t len);

/* ---- thread identity (cpc_sched.c) ------------------------------------ */

/* The pool this OS thread works for; NULL on the scheduler thread and on
   foreign threads.  Non-NULL means "detached". */
extern _Thread_local cpc_sched *cpc__tls_pool;
/* True on the scheduler thread (see above). */
extern _Thread_local bool cpc__tls_is_sched;
/* What a live condvar's magic must equal for this OS thread to use it:
   CV_MAGIC_LIVE, except on pool workers (CV_KEY_DETACHED, which no condvar
   ever carries).  So the hot paths of cpc_signal and cpc_wait check "live
   condvar, attached thread" with one compare; the cold path tells which
   misuse it was. */
#define CV_MAGIC_LIVE   0x43564c56u    /* "CVLV" */
#define CV_MAGIC_DEAD   0x43564444u
#define CV_KEY_DETACHED 0x44455441u    /* never a condvar's magic */
extern _Thread_local uint32_t cpc__tls_cv_key;

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

/* Give back the cached buffers and the empty slabs (called when
   cpc_main_loop returns). */
void cpc__cont_cache_flush(void);

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
    cpc_condvar *cv;
    uint32_t heap_index;
    int32_t fd;
    cpc_continuation *io_next;
    cpc_continuation *io_prev;
    uint32_t io_dir;
};

#define CPC_WAIT_COND  offsetof(struct cpc_wait, cv)        /* 8 */
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

/* ---- scheduler (cpc_sched.c) ------------------------------------------ */

/* The run queue: an intrusive FIFO through cpc_next; `tail` is the
   address of the last cpc_next, meaningful only while head is not NULL
   (emptying the queue is one store).  Scheduler thread only. */
struct sched_queue {
    cpc_continuation *head;
    cpc_continuation **tail;
};
extern struct sched_queue cpc__sched_runq;
/* Threads sleeping or waiting for an fd (cpc__tmr_n + cpc__io_waiters, kept by the
   timer and I/O subsystems), so that the main loop's test between passes
   reads one word. */
extern size_t cpc__sched_blocked;

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
/* Append a thread to the run queue (scheduler thread only). */
static inline void sched_runq_push(cpc_continuation *k)
{
    sched_queue_push(&cpc__sched_runq, k);
}
/* Wake a suspended thread with result v: store it, queue the thread. */
static inline void sched_wake(cpc_continuation *k, int v)
{
    cpc_set_result(k, v);
    sched_runq_push(k);
}
/* Hand a thread to the scheduler from any OS thread. */
void cpc__sched_inbox_push(cpc_continuation *k);
/* Run a detached thread on a pool worker until it moves or ends (a yield
   returns at once); frees it when it ends. */
void cpc__sched_run(cpc_continuation *k);
/* A thread ended (outermost function returned, or cpc_done): free it and,
   when it was detached, account for it. */
void cpc__sched_thread_end(cpc_continuation *k);
/* Monotonic time in nanoseconds, cached per scheduler pass. */
int64_t cpc__sched_now(void);
/* Account for threads leaving/entering detached mode (lock-protected
   counter the main loop reads to know whether it may return). */
void cpc__sched_detached_add(long delta);
/* Move a detached thread back to the scheduler: inbox + counter, atomically
   with respect to the main loop's exit test. */
void cpc__sched_attach_from_pool(cpc_continuation *k);

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
/* Queue k to wake at monotonic time `when`; has_cv: it is also on a
   condvar and may be removed early. */
void cpc__tmr_add(cpc_continuation *k, int64_t when, bool has_cv);
/* Suspend k (running) on c and in the heap for `delay` ns, whichever wakes
   it first: cpc_wait with a timeout, cpc_sleep with a condvar. */
cpc_continuation *cpc__tmr_wait_cv(cpc_continuation *k, cpc_condvar *c,
                              int64_t delay);
/* Remove k (W_COND|W_TIMER) from the heap. */
void cpc__tmr_remove(cpc_continuation *k);
/* Number of sleepers (read inline by the main loop). */
extern size_t cpc__tmr_n;
/* Wake every sleeper due at `now`. */
void cpc__tmr_expire(int64_t now);
/* Deadline of the earliest sleeper, or -1. */
int64_t cpc__tmr_next(void);
void cpc__tmr_shutdown(void);

/* ---- I/O (cpc_io.c) --------------------------------------------------- */

void cpc__io_init(void);                 /* epoll fd; aborts on failure */
void cpc__io_add_wakeup_fd(int fd);      /* the inbox eventfd */
/* Wait for events at most timeout_ms (-1: forever) and wake the waiters. */
void cpc__io_poll(int timeout_ms);
/* Remove k (W_COND|W_IO) from its fd list (woken by its condvar). */
void cpc__io_unlink(cpc_continuation *k);
/* Number of threads waiting for an fd (read inline by the main loop). */
extern size_t cpc__io_waiters;
void cpc__io_shutdown(void);

/* ---- pools (cpc_pool.c) ----------------------------------------------- */

/* Hand a thread to pool s (any OS thread). */
void cpc__pool_push(cpc_sched *s, cpc_continuation *k);
/* A thread leaves pool s (it moved elsewhere or ended). */
void cpc__pool_leave(cpc_sched *s);
/* Create the default pool (called by cpc_main_loop). */
void cpc__pool_init_default(void);
/* Release the default pool when the main loop returns. */
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
#else
#define cpc__dbg_init(k) ((void)0)
#define cpc__dbg_suspend(k, spawn) ((void)0)
#define cpc__dbg_resume(k) ((void)0)
#define cpc__dbg_check_running(k) ((void)0)
#define cpc__dbg_free(k) false
#define cpc__dbg_moved(from, to) ((void)0)
#endif

#endif /* CPC_INTERNAL_H */
