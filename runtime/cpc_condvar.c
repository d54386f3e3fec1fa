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
 * Misuse.  The hot paths check with one compare that the condvar is live
 * and the caller attached (c->magic == cpc__tls_cv_key, see cpc_internal.h);
 * cv_misuse, out of line, says which error it was.  cpc_signal reads the
 * magic and nremovable as one word, so that one compare also sends it to
 * the general path when a removable waiter is present.
 *
 * Lifetime: reference counted.  When the last reference goes while threads
 * still wait, the condvar stays allocated until the last waiter leaves
 * through its timeout or fd (a waiter with neither can never be woken: it
 * is stranded, as it would be in any threads library).
 */
#include "cpc_internal.h"

#include <stdlib.h>

struct cpc_condvar {
    struct sched_queue q;       /* the waiters */
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
};

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
        cpc__fatal("%s: NULL condvar", what);
    cpc__fatal("%s: condvar %p was freed (released more times than it "
               "was retained?)", what, (void *)c);
}

static inline void cv_check(cpc_condvar *c, const char *what)
{
    if (CPC_UNLIKELY(c == NULL || c->magic != cpc__tls_cv_key))
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
    c->magic = CV_MAGIC_DEAD;
    free(c);
}

cpc_condvar *cpc_condvar_get(void)
{
    cpc_require_attached("cpc_condvar_get");
    cpc_condvar *c = malloc(sizeof *c);
    if (c == NULL)
        cpc__fatal("out of memory allocating a condvar");
    c->q.head = NULL;
    c->q.tail = NULL;
    c->refcount = 1;
    c->nremovable = 0;
    c->magic = CV_MAGIC_LIVE;
    return c;
}

cpc_condvar *cpc_condvar_retain(cpc_condvar *c)
{
    cv_check(c, "cpc_condvar_retain");
    if (c->refcount <= 0)
        cpc__fatal("cpc_condvar_retain: condvar %p has no reference left",
                   (void *)c);
    c->refcount++;
    return c;
}

void cpc_condvar_release(cpc_condvar *c)
{
    cpc_require_attached("cpc_condvar_release");
    if (c == NULL)
        cpc__fatal("cpc_condvar_release: NULL condvar");
    if (c->magic != CV_MAGIC_LIVE || c->refcount <= 0)
        cpc__fatal("cpc_condvar_release: condvar %p released more times than "
                   "it was retained", (void *)c);
    if (--c->refcount == 0 && c->q.head == NULL)
        cv_destroy(c);
}

int cpc_condvar_count(cpc_condvar *c)
{
    cv_check(c, "cpc_condvar_count");
    int n = 0;
    for (cpc_continuation *k = c->q.head; k != NULL; k = k->cpc_next)
        n++;
    return n;
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
    cv_check(c, "the condvar argument of cpc_sleep or cpc_io_wait");
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
        cpc__tmr_remove(k);
    else if (flags & CPC_W_IO)
        cpc__io_unlink(k);
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
    sched_wake(k, CPC_CONDVAR);
}

void cpc_signal(cpc_condvar *c)
{
    if (CPC_UNLIKELY(c == NULL || c->magic_nremovable != cv_plain_key())) {
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
    sched_runq_push(k);
}

void cpc_signal_all(cpc_condvar *c)
{
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
        sched_wake(k, CPC_CONDVAR);
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
    return cpc__tmr_wait_cv(k, c, tmr_delay_ns(sec, usec));
}

CPC_COLD static cpc_continuation *cv_wait_grow(cpc_continuation *k,
                                               cpc_condvar *c)
{
    k = cpc_continuation_grow(k, CPC_WAIT_COND);
    cpc__dbg_suspend(k, false);
    cv_push(c, k, CPC_W_COND);
    return NULL;
}

cpc_continuation *cpc_wait__cps(cpc_continuation *k, cpc_condvar *c,
                                int sec, int usec)
{
    if (CPC_UNLIKELY(sec >= 0))
        return cv_wait_timed(k, c, sec, usec);
    cv_check(c, "cpc_wait");
    if (CPC_UNLIKELY(k->size - k->length < CPC_WAIT_COND))
        return cv_wait_grow(k, c);
    cpc__dbg_suspend(k, false);
    cv_push(c, k, CPC_W_COND);
    return NULL;
}
