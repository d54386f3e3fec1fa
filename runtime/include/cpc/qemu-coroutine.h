/*
 * cpc/qemu-coroutine.h -- QEMU's coroutine interface on CPC continuations.
 *
 * The names and signatures are QEMU's (include/qemu/coroutine-core.h and
 * coroutine.h), so that QEMU code compiled with cpcc runs on this backend:
 * `coroutine_fn` is `cps`, a coroutine is a CPC continuation that
 * qemu_coroutine_enter runs on the caller's native stack until it yields or
 * returns, and the locks (CoQueue, CoMutex, CoRwlock) are CPC code
 * (lib/qemu/).
 *
 * Semantics, as in QEMU:
 *  - qemu_coroutine_enter may be called from native code or from a
 *    coroutine (nesting); it returns when the coroutine yields or ends.  A
 *    coroutine that ends is freed (or goes back to the pool).
 *  - Entering a coroutine that is already entered (part of the chain of
 *    coroutines that entered each other) aborts with a message.
 *  - A coroutine woken from coroutine context (qemu_co_queue_next, a mutex
 *    unlock) runs when the current coroutine yields or ends, before control
 *    goes back to whoever entered it; woken from native context, it runs at
 *    once.
 *  - qemu_coroutine_self and qemu_in_coroutine are cpc_need_cont functions:
 *    they read the continuation the translator passes them, with no
 *    thread-local bookkeeping.  So they answer for the function that calls
 *    them: in a coroutine_fn, the current coroutine and true; in a native
 *    function, NULL and false -- even when that native function was called
 *    by a coroutine (QEMU's "hybrid" functions must be split in a
 *    coroutine_fn and a native version; cpc-check reports them).
 *  - Only QEMU coroutines (threads started by qemu_coroutine_enter) may call
 *    qemu_coroutine_self, qemu_coroutine_yield and the locks; a CPC thread
 *    started by cpc_spawn is not a QEMU coroutine.
 *
 * The pool: coroutines that end are kept (up to 64 by default, QEMU's
 * batch size) and reused by qemu_coroutine_create without allocating;
 * qemu_coroutine_dec_pool_size(64) turns it off, inc_pool_size enlarges it.
 */
#ifndef CPC_QEMU_COROUTINE_H
#define CPC_QEMU_COROUTINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cpc/cpc_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef coroutine_fn
#define coroutine_fn cps
#endif

typedef struct Coroutine Coroutine;
typedef struct CoMutex CoMutex;

/* A coroutine's entry point: runs in the coroutine, which ends when it
   returns. */
typedef void coroutine_fn CoroutineEntry(void *opaque);

/* The handle.  Its fields are the backend's; QEMU's tests copy the whole
   structure, so it is complete here. */
struct Coroutine {
    CoroutineEntry *entry;
    void *entry_arg;
    /* Non-NULL while entered (the coroutine that entered it, or a marker
       for native code). */
    Coroutine *caller;
    /* The parked continuation while the coroutine is not running; NULL
       while it runs. */
    cpc_continuation *cont;
    /* Coroutines woken by this one, entered when it yields or ends. */
    Coroutine *wakeup_head;
    Coroutine **wakeup_tail;
    /* Link in a CoQueue, a mutex's waiters or a wake-up list. */
    Coroutine *co_queue_next;
    /* Locks held (CoMutex, CoRwlock); must be 0 when it ends. */
    unsigned locks_held;
    /* Link in the pool. */
    Coroutine *pool_next;
};

Coroutine *qemu_coroutine_create(CoroutineEntry *entry, void *opaque);
void qemu_coroutine_enter(Coroutine *coroutine);
/* Enter co unless it is entered already (part of the running chain). */
void qemu_coroutine_enter_if_inactive(Coroutine *co);
void coroutine_fn qemu_coroutine_yield(void);
bool qemu_coroutine_entered(Coroutine *co);
void qemu_coroutine_inc_pool_size(unsigned int additional_pool_size);
void qemu_coroutine_dec_pool_size(unsigned int additional_pool_size);

/* ---- queues and locks (CPC code, lib/qemu/lock.cpc) ------------------- */

/* QEMU's QemuLockable, for the locks of this backend (CoMutex): the lock
   operations are coroutine_fn. */
typedef void coroutine_fn QemuLockUnlockFunc(void *);
typedef struct QemuLockable {
    void *object;
    QemuLockUnlockFunc *lock;
    QemuLockUnlockFunc *unlock;
} QemuLockable;

struct CoMutex {
    unsigned locked;            /* holder + waiters; 0 when free */
    Coroutine *holder;
    Coroutine *waiters_head;    /* FIFO through co_queue_next */
    Coroutine **waiters_tail;
    /* What QEMU_MAKE_LOCKABLE gives for this mutex: it lives as long as
       the mutex, so a coroutine may keep it across yields. */
    QemuLockable lockable;
};

typedef struct CoQueue {
    Coroutine *head;            /* FIFO through co_queue_next */
    Coroutine **tail;
} CoQueue;

typedef enum {
    CO_QUEUE_WAIT_FRONT = 0x1,  /* wait at the front of the queue */
} CoQueueWaitFlags;

void qemu_co_mutex_init(CoMutex *mutex);
void coroutine_fn qemu_co_mutex_lock(CoMutex *mutex);
void coroutine_fn qemu_co_mutex_unlock(CoMutex *mutex);
void coroutine_fn qemu_co_mutex_assert_locked(CoMutex *mutex);

/* The QemuLockable of a CoMutex (NULL for a null pointer). */
QemuLockable *qemu_co_mutex_lockable(CoMutex *mutex);
/* QEMU_MAKE_LOCKABLE(x) takes what QEMU's takes, of the locks this backend
   has: a CoMutex *, a QemuLockable * (itself), or NULL (a null lockable).
   Anything else (an int *, a QemuMutex *, which this backend has not) is
   an error at the use: no association of the _Generic takes its type. */
/* NULL; another `void *` is a misuse, reported at run time (its type says
   nothing of the lock it points to). */
QemuLockable *qemu_null_lockable(void *x);
#define QEMU_MAKE_LOCKABLE(x)                                                \
    _Generic((x), QemuLockable *: (x),                                      \
             CoMutex *: qemu_co_mutex_lockable((CoMutex *)(x)),             \
             void *: qemu_null_lockable((void *)(x)))
#define QEMU_MAKE_LOCKABLE_NONNULL(x) QEMU_MAKE_LOCKABLE(x)
void coroutine_fn qemu_lockable_lock(QemuLockable *x);
void coroutine_fn qemu_lockable_unlock(QemuLockable *x);

void qemu_co_queue_init(CoQueue *queue);
void coroutine_fn qemu_co_queue_wait_impl(CoQueue *queue, QemuLockable *lock,
                                          CoQueueWaitFlags flags);
#define qemu_co_queue_wait(queue, lock) \
    qemu_co_queue_wait_impl(queue, QEMU_MAKE_LOCKABLE(lock), 0)
#define qemu_co_queue_wait_flags(queue, lock, flags) \
    qemu_co_queue_wait_impl(queue, QEMU_MAKE_LOCKABLE(lock), (flags))
bool coroutine_fn qemu_co_queue_next(CoQueue *queue);
void coroutine_fn qemu_co_queue_restart_all(CoQueue *queue);
bool qemu_co_enter_next_impl(CoQueue *queue, QemuLockable *lock);
#define qemu_co_enter_next(queue, lock) \
    qemu_co_enter_next_impl(queue, QEMU_MAKE_LOCKABLE(lock))
void qemu_co_enter_all_impl(CoQueue *queue, QemuLockable *lock);
#define qemu_co_enter_all(queue, lock) \
    qemu_co_enter_all_impl(queue, QEMU_MAKE_LOCKABLE(lock))
bool qemu_co_queue_empty(CoQueue *queue);

typedef struct CoRwTicket CoRwTicket;
typedef struct CoRwlock {
    CoMutex mutex;
    int owners;                 /* readers, or -1 when held for writing */
    CoRwTicket *tickets_head;   /* waiting coroutines, FIFO */
    CoRwTicket **tickets_tail;
} CoRwlock;

void qemu_co_rwlock_init(CoRwlock *lock);
void coroutine_fn qemu_co_rwlock_rdlock(CoRwlock *lock);
void coroutine_fn qemu_co_rwlock_upgrade(CoRwlock *lock);
void coroutine_fn qemu_co_rwlock_downgrade(CoRwlock *lock);
void coroutine_fn qemu_co_rwlock_wrlock(CoRwlock *lock);
void coroutine_fn qemu_co_rwlock_unlock(CoRwlock *lock);

/* ---- sleeping (needs cpc_main_loop running: the timer is a CPC thread) - */

typedef enum {
    QEMU_CLOCK_REALTIME = 0,
    QEMU_CLOCK_VIRTUAL = 1,
    QEMU_CLOCK_HOST = 2,
    QEMU_CLOCK_VIRTUAL_RT = 3,
} QEMUClockType;

typedef struct QemuCoSleep {
    Coroutine *to_wake;
} QemuCoSleep;

/* Yield for ns nanoseconds (every clock is the monotonic clock here), or
   until qemu_co_sleep_wake(w). */
void coroutine_fn qemu_co_sleep_ns_wakeable(QemuCoSleep *w, QEMUClockType type,
                                            int64_t ns);
void coroutine_fn qemu_co_sleep(QemuCoSleep *w);
void coroutine_fn qemu_co_sleep_ns(QEMUClockType type, int64_t ns);
void qemu_co_sleep_wake(QemuCoSleep *w);

/* ---- introspection: cpc_need_cont ------------------------------------- */

#ifdef __CPC_FRONTEND__
Coroutine *qemu_coroutine_self(void) __attribute__((cpc_need_cont));
bool qemu_in_coroutine(void) __attribute__((cpc_need_cont));
#else
Coroutine *qemu_coroutine_self(cpc_continuation *k);
bool qemu_in_coroutine(cpc_continuation *k);
#endif

#ifdef __cplusplus
}
#endif

#endif /* CPC_QEMU_COROUTINE_H */
