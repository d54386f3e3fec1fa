/*
 * cpc_condvar.c -- condition variables.
 *
 * A condvar is a FIFO of suspended threads, linked forward through
 * cpc_next: a struct sched_queue, like the run queue, whose tail is dead
 * while its head is NULL.  Signalling pops from the head, so wake-ups
 * follow wait order, and stores nothing but the new head.
 *
 * Removal from the middle.  A thread that also sleeps (timed wait,
 * cpc_sleep with a condvar) or waits for an fd -- a "removable" waiter --
 * leaves the condvar in O(1) when its other event wins: the `link` word of
 * its wait record (cpc_internal.h) holds the address of the cpc_next field
 * pointing to it, and the CPC_W_* flags.  Only a removable waiter ever
 * reads its own link, so a plain waiter's link is CV_PLAIN_LINK: no flag
 * bit set, and its first int is already the result CPC_CONDVAR, so a
 * signal stores nothing into the thread it wakes (and relinking never
 * touches a plain waiter).  A removable waiter writes its link when it
 * enqueues, and it is kept up to date only while the condvar holds a
 * removable waiter (`nremovable` > 0): the link of a removable waiter is
 * fixed whenever its predecessor leaves, which always goes through a
 * general path while nremovable > 0.  So the common case -- plain
 * cpc_wait, cpc_signal -- touches neither the signalled thread's record
 * nor its successor's.
 *
 * A plain cpc_wait costs 8 bytes of wait record and no allocation.
 *
 * No count is kept: cpc_condvar_count walks the list.  Keeping one costs
 * a read-modify-write of the condvar in every wait and every signal (about
 * 4% of a cond ping-pong), for a query nothing in the runtime or the
 * library needs.
 *
 * Owner.  A condvar belongs to the scheduler whose thread created it: its
 * magic is that scheduler's key (cpc__tls_cv_key), so the hot paths check
 * with one compare that the condvar is live, the caller attached, and on
 * the condvar's scheduler; cv_misuse, out of line, says which error it
 * was.  Waking queues the thread on the run queue of the signaller's
 * scheduler, which is its own.
 *
 * Shared condvars (cpc_condvar_get_shared) have waiters on any scheduler.
 * Their magic, CV_MAGIC_SHARED, matches no key, so every use takes the
 * cold path to cv_shared_*: the wait list is guarded by a mutex, a waiter
 * records its scheduler in its wait record (`home`), and a signal queues
 * the woken thread on its scheduler -- the run queue when that is the
 * signaller's, its inbox otherwise.  A waiter on a shared condvar is
 * never removable (no timeout, no fd), so the list is a plain FIFO.
 * cpc_wait_unlock releases a mutex once the thread is on the list, which
 * gives the check-then-wait of a condition shared between schedulers no
 * window for a lost wake-up.  cpc_signal reads the
 * magic and nremovable as one word, so that one compare also sends it to
 * the general path when a removable waiter is present.
 *
 * Lifetime: reference counted.  When the last reference goes while threads
 * still wait, the condvar stays allocated until the last waiter leaves
 * through its timeout or fd (a waiter with neither can never be woken: it
 * is stranded, as it would be in any threads library).
 */
#include "cpc_internal.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

struct cpc_condvar {
    struct sched_queue q;       /* the waiters (shared: under lock) */
    /* After the first 16 bytes, which malloc may reuse once freed: an
       over-release is then still likely to see the dead magic. */
    int refcount;
    /* magic then nremovable (waiters with W_TIMER or W_IO), read together
       by cpc_signal (see cv_plain_key). */
    union {
        struct {
            uint32_t magic;
            uint32_t nremovable;
        };
        uint64_t magic_nremovable;
    };
#ifdef CPC_DEBUG
    cpc_condvar *dbg_next, *dbg_prev;   /* cpc__dbg_condvars */
#endif
};

#if UINTPTR_MAX == UINT64_MAX
/* The gdb extension (tools/gdb/cpc-gdb.py: CV_TAIL, CV_REFCOUNT, CV_MAGIC)
   finds the condvars of the release runtime in the heap by these offsets. */
_Static_assert(offsetof(struct cpc_condvar, q) + offsetof(struct sched_queue, tail) == 8,
               "cpc-gdb.py: CV_TAIL");
_Static_assert(offsetof(struct cpc_condvar, refcount) == 16, "cpc-gdb.py: CV_REFCOUNT");
_Static_assert(offsetof(struct cpc_condvar, magic) == 24, "cpc-gdb.py: CV_MAGIC");
#endif
/* Optimised code's inline signal (cpc_runtime.h) reads a condvar as a
   struct cpc__condvar_head. */
_Static_assert(offsetof(struct cpc_condvar, q.head) ==
                   offsetof(struct cpc__condvar_head, head) &&
               offsetof(struct cpc_condvar, magic_nremovable) ==
                   offsetof(struct cpc__condvar_head, magic_nremovable) &&
               offsetof(struct cpc_condvar, magic) ==
                   offsetof(struct cpc__condvar_head, magic_nremovable),
               "struct cpc_condvar starts as struct cpc__condvar_head");

#ifdef CPC_DEBUG
/* Every live condvar, for debuggers (see cpc_debug.c).  Condvars of
   several schedulers are created and freed in parallel: the list has a
   lock (debug build only). */
cpc_condvar *cpc__dbg_condvars;
static pthread_mutex_t cv_dbg_lock = PTHREAD_MUTEX_INITIALIZER;

static void cv_dbg_register(cpc_condvar *c)
{
    pthread_mutex_lock(&cv_dbg_lock);
    c->dbg_prev = NULL;
    c->dbg_next = cpc__dbg_condvars;
    if (c->dbg_next != NULL)
        c->dbg_next->dbg_prev = c;
    cpc__dbg_condvars = c;
    pthread_mutex_unlock(&cv_dbg_lock);
}

static void cv_dbg_unregister(cpc_condvar *c)
{
    pthread_mutex_lock(&cv_dbg_lock);
    if (c->dbg_prev != NULL)
        c->dbg_prev->dbg_next = c->dbg_next;
    else
        cpc__dbg_condvars = c->dbg_next;
    if (c->dbg_next != NULL)
        c->dbg_next->dbg_prev = c->dbg_prev;
    pthread_mutex_unlock(&cv_dbg_lock);
}
#else
#define cv_dbg_register(c) ((void)0)
#define cv_dbg_unregister(c) ((void)0)
#endif


/* A shared condvar: the condvar, then its lock, in whole cache lines of
   their own (its wait list, magic and the words of the lock that locking
   touches are in the first): two condvars that threads of two schedulers
   wait on and signal in turn (a ping-pong) would otherwise share a line
   that moves from core to core at every use of either, or each span two
   lines. */
struct cv_shared {
    _Alignas(CPC__CACHE_LINE) struct cpc_condvar cv;
    pthread_mutex_t lock;
};

static inline struct cv_shared *cv_shared_of(cpc_condvar *c)
{
    return (struct cv_shared *)(void *)c;
}

/* The link word of a plain waiter (see the top of this file): no CPC_W_*
   flag, and the int at the start of the record reads CPC_CONDVAR. */
#if UINTPTR_MAX == UINT32_MAX || __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CV_PLAIN_LINK ((uintptr_t)CPC_CONDVAR)
#else
#define CV_PLAIN_LINK ((uintptr_t)CPC_CONDVAR << 32)
#endif

_Thread_local uint32_t cpc__tls_cv_key = CV_MAGIC_LIVE;

/* k's predecessor left: k's link is now pprev.  Only a removable waiter
   keeps its link; a plain one's holds its result. */
static inline void cv_set_link(cpc_continuation *k, cpc_continuation **pprev)
{
    struct cpc_wait *w = cpc_wait_of(k);
    uintptr_t flags = w->link & CPC_W_FLAGS;
    if (flags != 0)
        w->link = (uintptr_t)pprev | flags;
}

/* The cold path of every check: c is NULL, freed, or the caller is a
   detached thread.  Never returns. */
CPC_NORETURN CPC_COLD static void cv_misuse(cpc_condvar *c, const char *what)
{
    cpc_require_attached(what);
    if (c == NULL)
        cpc__fatal("%s: NULL condvar (cpc_condvar_get returns NULL when out "
                   "of memory: check its result)", what);
    if (c->magic == CV_MAGIC_SHARED)
        cpc__fatal("%s: condvar %p is shared between schedulers, which this "
                   "operation does not support (timeouts and fds: use a "
                   "condvar of one scheduler)", what, (void *)c);
    if (cpc__cv_key_live(c->magic))
        cpc__fatal("%s: condvar %p belongs to another scheduler (a condvar "
                   "used by threads of several schedulers must come from "
                   "cpc_condvar_get_shared)", what, (void *)c);
    cpc__fatal("%s: condvar %p was freed (released more times than it "
               "was retained?)", what, (void *)c);
}

static inline void cv_check(cpc_condvar *c, const char *what)
{
    if (CPC_UNLIKELY(c == NULL || c->magic != cv_own_key()))
        cv_misuse(c, what);
}

/* magic_nremovable for a live condvar used by this OS thread with no
   removable waiter. */
static inline uint64_t cv_plain_key(void)
{
    union { struct { uint32_t magic, nremovable; } s; uint64_t w; } u;
    u.s.magic = cpc__tls_cv_key;
    u.s.nremovable = 0;
    return u.w;
}

static void cv_destroy(cpc_condvar *c)
{
    cv_dbg_unregister(c);
    bool shared = c->magic == CV_MAGIC_SHARED;
    c->magic = CV_MAGIC_DEAD;
    if (shared)
        pthread_mutex_destroy(&cv_shared_of(c)->lock);
    free(c);
}

static cpc_condvar *cv_new(size_t size, size_t align, uint32_t magic)
{
    cpc_condvar *c = align > 0 ? aligned_alloc(align, size) : malloc(size);
    if (c == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    c->q.head = NULL;
    c->q.tail = NULL;
    c->refcount = 1;
    c->nremovable = 0;
    c->magic = magic;
    cv_dbg_register(c);
    return c;
}

cpc_condvar *cpc_condvar_get(void)
{
    cpc_require_attached("cpc_condvar_get");
    return cv_new(sizeof(struct cpc_condvar), 0, cv_own_key());
}

cpc_condvar *cpc_condvar_get_shared(void)
{
    cpc_condvar *c = cv_new(sizeof(struct cv_shared), _Alignof(struct cv_shared),
                            CV_MAGIC_SHARED);
    if (c == NULL)
        return NULL;
    pthread_mutex_init(&cv_shared_of(c)->lock, NULL);
    return c;
}

/* The condvar is usable here: this scheduler's, or shared (then locked,
   and true is returned: unlock when done). */
static bool cv_check_lock(cpc_condvar *c, const char *what)
{
    if (CPC_LIKELY(c != NULL && c->magic == cv_own_key()))
        return false;
    if (c == NULL || c->magic != CV_MAGIC_SHARED || cpc__tls_pool != NULL)
        cv_misuse(c, what);
    pthread_mutex_lock(&cv_shared_of(c)->lock);
    return true;
}

static void cv_unlock(cpc_condvar *c, bool locked)
{
    if (locked)
        pthread_mutex_unlock(&cv_shared_of(c)->lock);
}

cpc_condvar *cpc_condvar_retain(cpc_condvar *c)
{
    bool locked = cv_check_lock(c, "cpc_condvar_retain");
    if (c->refcount <= 0)
        cpc__fatal("cpc_condvar_retain: condvar %p has no reference left",
                   (void *)c);
    c->refcount++;
    cv_unlock(c, locked);
    return c;
}

void cpc_condvar_release(cpc_condvar *c)
{
    cpc_require_attached("cpc_condvar_release");
    if (c == NULL)
        cpc__fatal("cpc_condvar_release: NULL condvar");
    if (!cpc__cv_key_live(c->magic) || c->refcount <= 0)
        cpc__fatal("cpc_condvar_release: condvar %p released more times than "
                   "it was retained", (void *)c);
    bool locked = cv_check_lock(c, "cpc_condvar_release");
    bool last = --c->refcount == 0 && c->q.head == NULL;
    cv_unlock(c, locked);
    if (last)
        cv_destroy(c);
}

int cpc_condvar_count(cpc_condvar *c)
{
    bool locked = cv_check_lock(c, "cpc_condvar_count");
    int n = 0;
    for (cpc_continuation *k = c->q.head; k != NULL; k = k->cpc_next)
        n++;
    cv_unlock(c, locked);
    return n;
}

/* ---- shared condvars ------------------------------------------------------ */

/* Queue woken waiters k..., each on its scheduler, result CPC_CONDVAR (a
   plain waiter's record already says so). */
static void cv_shared_wake(cpc_continuation *k)
{
    while (k != NULL) {
        cpc_continuation *next = k->cpc_next;
        cpc__sched_queue_on(cpc_wait_of(k)->home, k);
        k = next;
    }
}

CPC_COLD static void cv_shared_signal(cpc_condvar *c, bool all)
{
    pthread_mutex_t *lock = &cv_shared_of(c)->lock;
    pthread_mutex_lock(lock);
    cpc_continuation *k = c->q.head;
    if (k != NULL) {
        if (all) {
            c->q.head = NULL;
        } else {
            c->q.head = k->cpc_next;
            k->cpc_next = NULL;
        }
    }
    bool last = c->q.head == NULL && c->refcount == 0;
    pthread_mutex_unlock(lock);
    cv_shared_wake(k);
    if (last && k != NULL)
        cv_destroy(c);
}

CPC_COLD static cpc_continuation *cv_shared_wait(cpc_continuation *k,
                                                 cpc_condvar *c,
                                                 pthread_mutex_t *m)
{
    k = cpc_reserve(k, CPC_WAIT_SHARED);
    cpc__dbg_suspend(k, false);
    struct cpc_wait *w = cpc_wait_of(k);
    w->link = CV_PLAIN_LINK;
    w->home = cpc__tls_sched;
    pthread_mutex_lock(&cv_shared_of(c)->lock);
    sched_queue_push(&c->q, k);
    pthread_mutex_unlock(&cv_shared_of(c)->lock);
    /* From here k belongs to the condvar: a signaller on another OS thread
       may queue it on our inbox at once (our loop takes it only after this
       returns). */
    if (m != NULL)
        pthread_mutex_unlock(m);
    return NULL;
}

/* Append k (running, room reserved for the record) to c's wait list. */
static inline void cv_push(cpc_condvar *c, cpc_continuation *k,
                           uintptr_t flags)
{
    if (flags == CPC_W_COND)
        cpc_wait_of(k)->link = CV_PLAIN_LINK;
    else
        cpc_wait_of(k)->link =
            (uintptr_t)(c->q.head == NULL ? &c->q.head : c->q.tail) | flags;
    sched_queue_push(&c->q, k);
}

void cpc__cv_enqueue(cpc_condvar *c, cpc_continuation *k, uintptr_t flags)
{
    cv_check(c, "the condvar argument of cpc_sleep, cpc_io_wait or a "
                "timed cpc_wait");
    cv_push(c, k, flags);
    if (flags != CPC_W_COND)
        c->nremovable++;
}

void cpc__cv_unlink(cpc_condvar *c, cpc_continuation *k)
{
    cpc_continuation **pprev =
        (cpc_continuation **)(cpc_wait_of(k)->link & ~(uintptr_t)CPC_W_FLAGS);
    cpc_continuation *next = k->cpc_next;
    *pprev = next;
    if (next != NULL)
        cv_set_link(next, pprev);
    else
        c->q.tail = pprev;      /* dead if pprev is &c->q.head */
    c->nremovable--;
    if (c->q.head == NULL && c->refcount == 0)
        cv_destroy(c);          /* released while this thread waited */
}

/* Take a woken waiter off whatever else holds it. */
static inline void cv_detach_other(cpc_continuation *k, uintptr_t flags)
{
    if (flags & CPC_W_TIMER)
        cpc__tmr_remove(cpc__tls_sched, k);
    else if (flags & CPC_W_IO)
        cpc__io_unlink(cpc__tls_sched, k);
}

/* cpc_signal while the condvar holds a removable waiter: the head may be
   one (take it off the heap or its fd), and the new head's link must point
   to c->head. */
CPC_COLD static void cv_signal_general(cpc_condvar *c, cpc_continuation *k)
{
    uintptr_t flags = cpc_wait_of(k)->link & CPC_W_FLAGS;
    cpc_continuation *next = k->cpc_next;
    c->q.head = next;
    if (next != NULL)
        cv_set_link(next, &c->q.head);
    if (flags != 0) {
        c->nremovable--;
        cv_detach_other(k, flags);
    }
    sched_wake(cpc__tls_sched, k, CPC_CONDVAR);
}

/* The fast path: a condvar of this scheduler in its loop (the key has no
   CV_KEY_OUTSIDE, so the scheduler is not parked), with no removable
   waiter.  The general path (cv_signal_general, sched_wake) tests
   `parked`. */
void cpc_signal(cpc_condvar *c)
{
    uint64_t key = cv_plain_key();
    if (CPC_UNLIKELY(c == NULL || c->magic_nremovable != key)) {
        if (c != NULL && c->magic == CV_MAGIC_SHARED && cpc__tls_pool == NULL) {
            cv_shared_signal(c, false);
            return;
        }
        cv_check(c, "cpc_signal");
        if (c->q.head != NULL)
            cv_signal_general(c, c->q.head);
        return;
    }
    cpc_continuation *k = c->q.head;
    if (k == NULL)
        return;
    c->q.head = k->cpc_next;
    /* Its result is already in place: see CV_PLAIN_LINK. */
    sched_push_keyed((uint32_t)key, k);
}

void cpc_signal_all(cpc_condvar *c)
{
    if (c != NULL && c->magic == CV_MAGIC_SHARED && cpc__tls_pool == NULL) {
        cv_shared_signal(c, true);
        return;
    }
    cv_check(c, "cpc_signal_all");
    cpc_continuation *k = c->q.head;
    bool removable = c->nremovable != 0;
    /* The whole list leaves at once: no link needs fixing. */
    c->q.head = NULL;
    c->nremovable = 0;
    while (k != NULL) {
        cpc_continuation *next = k->cpc_next;
        if (removable)
            cv_detach_other(k, cpc_wait_of(k)->link & CPC_W_FLAGS);
        sched_wake(cpc__tls_sched, k, CPC_CONDVAR);
        k = next;
    }
}

/* ---- cpc_wait -------------------------------------------------------------- */

/* The rare paths, out of line so that the plain wait keeps no register
   saved and touches no stack. */
CPC_COLD static cpc_continuation *cv_wait_timed(cpc_continuation *k,
                                                cpc_condvar *c,
                                                int sec, int usec)
{
    cv_check(c, "cpc_wait");
    return cpc__tmr_wait_cv(cpc__tls_sched, k, c, tmr_delay_ns(sec, usec));
}

CPC_COLD static cpc_continuation *cv_wait_grow(cpc_continuation *k,
                                               cpc_condvar *c)
{
    k = cpc_continuation_grow(k, CPC_WAIT_COND);
    cpc__dbg_suspend(k, false);
    cv_push(c, k, CPC_W_COND);
    return NULL;
}

/* The plain wait's record is what the header tells callers to reserve. */
_Static_assert(CPC_WAIT_COND == CPC_WAIT_RECORD, "cpc_runtime.h: CPC_WAIT_RECORD");

/* An untimed wait.  `reserved`: the caller's entry reserved room for the
   record (below), so there is no room test -- but in the debug runtime,
   which checks the reservation instead. */
static inline cpc_continuation *cv_wait_plain(cpc_continuation *k,
                                              cpc_condvar *c, bool reserved)
{
    if (CPC_UNLIKELY(c == NULL || c->magic != cpc__tls_cv_key)) {
        /* A shared condvar's record is larger: cv_shared_wait reserves
           its own room. */
        if (c != NULL && c->magic == CV_MAGIC_SHARED && cpc__tls_pool == NULL)
            return cv_shared_wait(k, c, NULL);
        /* A condvar of this scheduler, outside its loop
           (cpc_continuation_run) goes on. */
        if (c == NULL || c->magic != cv_own_key())
            cv_misuse(c, "cpc_wait");
    }
    /* (length + 8 cannot overflow: a continuation is below 4 GiB.)  One
       instruction fewer than size - length < 8. */
    if (CPC_UNLIKELY(k->length + (unsigned)CPC_WAIT_COND > k->size)) {
        if (!reserved)
            return cv_wait_grow(k, c);
#ifdef CPC_DEBUG
        cpc_reservation_violated(k, CPC_WAIT_COND);     /* (no return) */
#endif
    }
    cpc__dbg_suspend(k, false);
    cv_push(c, k, CPC_W_COND);
    return NULL;
}

/* The untimed wait (cpc_runtime.h sends cpc_wait__cps(k, c, -1, 0) here). */
cpc_continuation *cpc_wait_plain__cps(cpc_continuation *k, cpc_condvar *c)
{
    return cv_wait_plain(k, c, false);
}

/* The untimed wait of a caller whose entry reserved CPC_WAIT_RECORD bytes
   above the frame it waits in (translated code: a member of its union
   F__reserve; cpc_runtime.h sends cpc_wait_reserved__cps(k, c, -1, 0)
   here): no room test. */
cpc_continuation *cpc_wait_plain_reserved__cps(cpc_continuation *k,
                                               cpc_condvar *c)
{
    return cv_wait_plain(k, c, true);
}

/* (The name in parentheses: the function, not the header's macro.) */
cpc_continuation *(cpc_wait__cps)(cpc_continuation *k, cpc_condvar *c,
                                  int sec, int usec)
{
    if (CPC_UNLIKELY(sec >= 0))
        return cv_wait_timed(k, c, sec, usec);
    return cpc_wait_plain__cps(k, c);
}

cpc_continuation *cpc_wait_unlock__cps(cpc_continuation *k, cpc_condvar *c,
                                       pthread_mutex_t *m)
{
    if (c == NULL || c->magic != CV_MAGIC_SHARED || cpc__tls_pool != NULL) {
        if (c != NULL && c->magic == cv_own_key())
            cpc__fatal("cpc_wait_unlock: condvar %p is not shared (it comes "
                       "from cpc_condvar_get, not cpc_condvar_get_shared)",
                       (void *)c);
        cv_misuse(c, "cpc_wait_unlock");
    }
    return cv_shared_wait(k, c, m);
}
