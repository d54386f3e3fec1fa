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
 */
#define _GNU_SOURCE
#include "cpc_internal.h"

#include <errno.h>
#include <stdlib.h>

struct tmr_entry {
    int64_t when;
    uint64_t seq;               /* sequence << 1 | has_cv */
    cpc_continuation *k;
};

static struct tmr_entry *tmr_heap;
size_t cpc__tmr_n;                   /* read inline by the main loop */
static size_t tmr_cap;
static uint64_t tmr_seq;

static inline bool tmr_less(const struct tmr_entry *a,
                              const struct tmr_entry *b)
{
    return a->when < b->when || (a->when == b->when && a->seq < b->seq);
}

static inline void tmr_set(size_t i, struct tmr_entry e)
{
    tmr_heap[i] = e;
    if (e.seq & 1)
        cpc_wait_of(e.k)->heap_index = (uint32_t)i;
}

static void tmr_sift_up(size_t i, struct tmr_entry e)
{
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!tmr_less(&e, &tmr_heap[parent]))
            break;
        tmr_set(i, tmr_heap[parent]);
        i = parent;
    }
    tmr_set(i, e);
}

static void tmr_sift_down(size_t i, struct tmr_entry e)
{
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= cpc__tmr_n)
            break;
        if (child + 1 < cpc__tmr_n &&
            tmr_less(&tmr_heap[child + 1], &tmr_heap[child]))
            child++;
        if (!tmr_less(&tmr_heap[child], &e))
            break;
        tmr_set(i, tmr_heap[child]);
        i = child;
    }
    tmr_set(i, e);
}

void cpc__tmr_add(cpc_continuation *k, int64_t when, bool has_cv)
{
    if (cpc__tmr_n == tmr_cap) {
        size_t cap = tmr_cap ? tmr_cap * 2 : 64;
        struct tmr_entry *h = realloc(tmr_heap, cap * sizeof *h);
        if (h == NULL)
            cpc__fatal("out of memory growing the timer heap");
        tmr_heap = h;
        tmr_cap = cap;
    }
    struct tmr_entry e = { when, (tmr_seq++ << 1) | has_cv, k };
    tmr_sift_up(cpc__tmr_n++, e);
    cpc__sched_blocked++;
}

/* Remove the entry at index i. */
static void tmr_delete(size_t i)
{
    struct tmr_entry last = tmr_heap[--cpc__tmr_n];
    cpc__sched_blocked--;
    if (i == cpc__tmr_n)
        return;
    if (i > 0 && tmr_less(&last, &tmr_heap[(i - 1) / 2]))
        tmr_sift_up(i, last);
    else
        tmr_sift_down(i, last);
}

void cpc__tmr_remove(cpc_continuation *k)
{
    tmr_delete(cpc_wait_of(k)->heap_index);
}

void cpc__tmr_expire(int64_t now)
{
    while (cpc__tmr_n > 0 && tmr_heap[0].when <= now) {
        struct tmr_entry e = tmr_heap[0];
        tmr_delete(0);
        if (e.seq & 1)
            cpc__cv_unlink(cpc_wait_of(e.k)->cv, e.k);
        sched_wake(e.k, CPC_TIMEOUT);
    }
}

int64_t cpc__tmr_next(void)
{
    return cpc__tmr_n > 0 ? tmr_heap[0].when : -1;
}

void cpc__tmr_shutdown(void)
{
    if (cpc__tmr_n == 0) {
        free(tmr_heap);
        tmr_heap = NULL;
        tmr_cap = 0;
    }
}

/* ---- cpc_sleep ------------------------------------------------------------- */

cpc_continuation *cpc__tmr_wait_cv(cpc_continuation *k, cpc_condvar *c,
                              int64_t delay)
{
    k = cpc_reserve(k, CPC_WAIT_TIMED);
    cpc__dbg_suspend(k, false);
    cpc__cv_enqueue(c, k, CPC_W_COND | CPC_W_TIMER);
    cpc_wait_of(k)->cv = c;
    cpc__tmr_add(k, cpc__sched_now() + delay, true);
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
    if (cpc__tls_pool != NULL) {
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
        cpc__tmr_add(k, cpc__sched_now() + delay, false);
        return NULL;
    }
    return cpc__tmr_wait_cv(k, c, delay);
}
