/*
 * cpc_condvar.c -- condition variables.
 *
 * A condvar is a FIFO of suspended threads, linked forward through
 * cpc_next and backward through the `link` word of each thread's wait
 * record (above its top frame, see cpc_internal.h).  Signalling pops from
 * the head, so wake-ups follow wait order.  The back link makes removal
 * from the middle O(1): a thread that also sleeps or waits for an fd
 * leaves the condvar in constant time when its other event wins.  The
 * flags in `link` tell the signaller whether the thread must also be taken
 * off the timer heap or an fd list.
 *
 * A plain cpc_wait costs 8 bytes of wait record and no allocation.
 *
 * Lifetime: reference counted.  When the last reference goes while threads
 * still wait, the condvar stays allocated until the last waiter leaves
 * through its timeout or fd (a waiter with neither can never be woken: it
 * is stranded, as it would be in any threads library).
 */
#include "cpc_internal.h"

#include <stdlib.h>

#define CV_MAGIC_LIVE 0x43564c56u    /* "CVLV" */
#define CV_MAGIC_DEAD 0x43564444u

struct cpc_condvar {
    cpc_continuation *head, *tail;
    /* After the first 16 bytes, which malloc may reuse once freed: an
       over-release is then still likely to see the dead magic. */
    int refcount;
    int count;
    uint32_t magic;
};

static inline cpc_continuation *cv_prev(cpc_continuation *k)
{
    return (cpc_continuation *)(cpc_wait_of(k)->link & ~(uintptr_t)CPC_W_FLAGS);
}

static inline void cv_set_prev(cpc_continuation *k, cpc_continuation *prev)
{
    struct cpc_wait *w = cpc_wait_of(k);
    w->link = (uintptr_t)prev | (w->link & CPC_W_FLAGS);
}

static void cv_check(cpc_condvar *c, const char *what)
{
    if (c == NULL)
        cpc_fatal("%s: NULL condvar", what);
    if (c->magic != CV_MAGIC_LIVE)
        cpc_fatal("%s: condvar %p was freed (released more times than it "
                  "was retained?)", what, (void *)c);
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
        cpc_fatal("out of memory allocating a condvar");
    c->head = c->tail = NULL;
    c->refcount = 1;
    c->count = 0;
    c->magic = CV_MAGIC_LIVE;
    return c;
}

cpc_condvar *cpc_condvar_retain(cpc_condvar *c)
{
    cpc_require_attached("cpc_condvar_retain");
    cv_check(c, "cpc_condvar_retain");
    if (c->refcount <= 0)
        cpc_fatal("cpc_condvar_retain: condvar %p has no reference left",
                  (void *)c);
    c->refcount++;
    return c;
}

void cpc_condvar_release(cpc_condvar *c)
{
    cpc_require_attached("cpc_condvar_release");
    if (c == NULL)
        cpc_fatal("cpc_condvar_release: NULL condvar");
    if (c->magic != CV_MAGIC_LIVE || c->refcount <= 0)
        cpc_fatal("cpc_condvar_release: condvar %p released more times than "
                  "it was retained", (void *)c);
    if (--c->refcount == 0 && c->count == 0)
        cv_destroy(c);
}

int cpc_condvar_count(cpc_condvar *c)
{
    cpc_require_attached("cpc_condvar_count");
    cv_check(c, "cpc_condvar_count");
    return c->count;
}

void cv_enqueue(cpc_condvar *c, cpc_continuation *k, uintptr_t flags)
{
    struct cpc_wait *w = cpc_wait_of(k);
    w->link = (uintptr_t)c->tail | flags;
    k->cpc_next = NULL;
    if (c->tail != NULL)
        c->tail->cpc_next = k;
    else
        c->head = k;
    c->tail = k;
    c->count++;
}

void cv_unlink(cpc_condvar *c, cpc_continuation *k)
{
    cpc_continuation *prev = cv_prev(k), *next = k->cpc_next;
    if (prev != NULL)
        prev->cpc_next = next;
    else
        c->head = next;
    if (next != NULL)
        cv_set_prev(next, prev);
    else
        c->tail = prev;
    c->count--;
    if (c->count == 0 && c->refcount == 0)
        cv_destroy(c);          /* released while this thread waited */
}

/* Take a woken waiter off whatever else holds it. */
static inline void cv_detach_other(cpc_continuation *k, uintptr_t flags)
{
    if (flags & CPC_W_TIMER)
        tmr_remove(k);
    else if (flags & CPC_W_IO)
        io_unlink(k);
}

void cpc_signal(cpc_condvar *c)
{
    cpc_require_attached("cpc_signal");
    cv_check(c, "cpc_signal");
    cpc_continuation *k = c->head;
    if (k == NULL)
        return;
    uintptr_t flags = cpc_wait_of(k)->link & CPC_W_FLAGS;
    cpc_continuation *next = k->cpc_next;
    c->head = next;
    if (next != NULL)
        cv_set_prev(next, NULL);
    else
        c->tail = NULL;
    c->count--;
    cv_detach_other(k, flags);
    sched_wake(k, CPC_CONDVAR);
}

void cpc_signal_all(cpc_condvar *c)
{
    cpc_require_attached("cpc_signal_all");
    cv_check(c, "cpc_signal_all");
    cpc_continuation *k = c->head;
    /* The whole list leaves at once: no back link needs fixing. */
    c->head = c->tail = NULL;
    c->count = 0;
    while (k != NULL) {
        cpc_continuation *next = k->cpc_next;
        cv_detach_other(k, cpc_wait_of(k)->link & CPC_W_FLAGS);
        sched_wake(k, CPC_CONDVAR);
        k = next;
    }
}

/* ---- cpc_wait -------------------------------------------------------------- */

cpc_continuation *cpc_wait__cps(cpc_continuation *k, cpc_condvar *c,
                                int sec, int usec)
{
    cpc_require_attached("cpc_wait");
    cv_check(c, "cpc_wait");
    if (sec < 0) {
        k = cont_reserve_wait(k, CPC_WAIT_COND);
        dbg_suspend(k, false);
        cv_enqueue(c, k, CPC_W_COND);
        return NULL;
    }
    k = cont_reserve_wait(k, CPC_WAIT_TIMED);
    dbg_suspend(k, false);
    cv_enqueue(c, k, CPC_W_COND | CPC_W_TIMER);
    cpc_wait_of(k)->cv = c;
    tmr_add(k, sched_now() + (int64_t)sec * 1000000000 +
                     (int64_t)usec * 1000, true);
    return NULL;
}
