/*
 * cpc_timer.c -- sleeping threads: a binary min-heap on CLOCK_MONOTONIC.
 *
 * Entries are ordered by (deadline, sequence number), so sleepers with
 * the same deadline wake in the order they went to sleep.  Deadlines are
 * computed from the time cached for the current scheduler pass, so two
 * equal sleeps in one pass have equal deadlines and keep their order.
 *
 * An entry whose thread also waits on a condvar (cpc_sleep with a condvar,
 * cpc_wait with a timeout) can be removed early; for those only, the heap
 * keeps the entry's index in the thread's wait record up to date, so
 * removal is O(log n).  Plain sleepers are never touched while queued.
 *
 * Each scheduler has its own heap (struct cpc_sched: tmr_heap, tmr_n),
 * touched only by its thread.
 */
#define _GNU_SOURCE
#include "cpc_internal.h"

#include <errno.h>
#include <stdlib.h>

struct cpc__tmr_entry {
    int64_t when;
    uint64_t seq;               /* sequence << 1 | has_cv */
    cpc_continuation *k;
};

static inline bool tmr_less(const struct cpc__tmr_entry *a,
                            const struct cpc__tmr_entry *b)
{
    return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

static inline void tmr_set(struct cpc_sched *s, size_t i,
                           struct cpc__tmr_entry e)
{
    s->tmr_heap[i] = e;
    if (e.seq & 1)
        cpc_wait_of(e.k)->heap_index = (uint32_t)i;
}

static void tmr_sift_up(struct cpc_sched *s, size_t i,
                        struct cpc__tmr_entry e)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!tmr_less(&e, &s->tmr_heap[parent]))
            break;
        tmr_set(s, i, s->tmr_heap[parent]);
        i = parent;
    }
    tmr_set(s, i, e);
}

static void tmr_sift_down(struct cpc_sched *s, size_t i,
                          struct cpc__tmr_entry e)
{
    struct cpc__tmr_entry *h = s->tmr_heap;
    size_t n = s->tmr_n;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && tmr_less(&h[child + 1], &h[child]))
            child++;
        if (!tmr_less(&h[child], &e))
            break;
        tmr_set(s, i, h[child]);
        i = child;
    }
    tmr_set(s, i, e);
}

void cpc__tmr_add(struct cpc_sched *s, cpc_continuation *k, int64_t when,
                  bool has_cv)
{
    if (s->tmr_n == s->tmr_cap) {
        size_t cap = s->tmr_cap ? s->tmr_cap * 2 : 64;
        struct cpc__tmr_entry *h = realloc(s->tmr_heap, cap * sizeof *h);
        if (h == NULL)
            cpc__exhausted("out of memory growing the timer heap to %zu sleepers", cap);
        s->tmr_heap = h;
        s->tmr_cap = cap;
    }
    struct cpc__tmr_entry e = { when, (s->tmr_seq++ << 1) | has_cv, k };
    tmr_sift_up(s, s->tmr_n++, e);
    s->blocked++;
}

/* Remove the entry at index i. */
static void tmr_delete(struct cpc_sched *s, size_t i)
{
    struct cpc__tmr_entry last = s->tmr_heap[--s->tmr_n];
    s->blocked--;
    if (i == s->tmr_n)
        return;
    if (i > 0 && tmr_less(&last, &s->tmr_heap[(i - 1) / 2]))
        tmr_sift_up(s, i, last);
    else
        tmr_sift_down(s, i, last);
}

void cpc__tmr_remove(struct cpc_sched *s, cpc_continuation *k)
{
    tmr_delete(s, cpc_wait_of(k)->heap_index);
}

void cpc__tmr_expire(struct cpc_sched *s, int64_t now)
{
    while (s->tmr_n > 0 && s->tmr_heap[0].when <= now) {
        struct cpc__tmr_entry e = s->tmr_heap[0];
        tmr_delete(s, 0);
        if (e.seq & 1)
            cpc__cv_unlink(cpc_wait_of(e.k)->cv, e.k);
        sched_wake(s, e.k, CPC_TIMEOUT);
    }
}

int64_t cpc__tmr_next(struct cpc_sched *s)
{
    return s->tmr_n > 0 ? s->tmr_heap[0].when : -1;
}

void cpc__tmr_shutdown(struct cpc_sched *s)
{
    if (s->tmr_n == 0) {
        free(s->tmr_heap);
        s->tmr_heap = NULL;
        s->tmr_cap = 0;
    }
}

/* ---- cpc_sleep ------------------------------------------------------------- */

cpc_continuation *cpc__tmr_wait_cv(struct cpc_sched *s, cpc_continuation *k,
                                   cpc_condvar *c, int64_t delay)
{
    k = cpc_reserve(k, CPC_WAIT_TIMED);
    cpc__dbg_suspend(k, false);
    cpc__cv_enqueue(c, k, CPC_W_COND | CPC_W_TIMER);
    cpc_wait_of(k)->cv = c;
    cpc__tmr_add(s, k, cpc__sched_now(s) + delay, true);
    return NULL;
}

/* Detached: a blocking sleep of ns nanoseconds, resumed after EINTR. */
static void tmr_sleep_blocking(int64_t ns)
{
    if (ns <= 0)
        return;
    struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

cpc_continuation *cpc_sleep__cps(cpc_continuation *k, int sec, int usec,
                                 cpc_condvar *c)
{
    int64_t delay = tmr_delay_ns(sec, usec);
    struct cpc_sched *s = cpc__tls_sched;
    if (s == NULL) {
        if (c != NULL)
            cpc_require_attached("cpc_sleep with a condvar");
        tmr_sleep_blocking(delay);
        int v = CPC_TIMEOUT;
        return cpc_return(k, &v, sizeof v);
    }
    if (delay < 0)
        delay = 0;
    if (c == NULL) {
        k = cpc_reserve(k, CPC_WAIT_COND);
        cpc__dbg_suspend(k, false);
        cpc_wait_of(k)->link = CPC_W_TIMER;
        cpc__tmr_add(s, k, cpc__sched_now(s) + delay, false);
        return NULL;
    }
    return cpc__tmr_wait_cv(s, k, c, delay);
}
