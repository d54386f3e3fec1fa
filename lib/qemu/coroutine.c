/*
 * lib/qemu/coroutine.c -- QEMU's coroutines as CPC continuations: create,
 * enter, self, the pool.  Written in C on the continuation ABI
 * (cpc_runtime.h); yield and the locks are CPC code (lock.cpc).
 *
 * A coroutine's continuation holds, at its bottom, a frame naming the
 * Coroutine (`struct qco_base`), which first starts the entry point
 * (qco_start) and then stays under its frames (qco_end).  So the current
 * coroutine is found from the continuation the
 * translator passes to cpc_need_cont functions -- no thread-local "current
 * coroutine", as in the paper's coroutine-cpc backend -- and the base
 * frame's function (qco_end) tells a QEMU coroutine from any other CPC
 * thread.  When the entry point returns, qco_end pops the base frame and
 * the continuation is empty: cpc_continuation_run gives it back, and the
 * coroutine ends.
 *
 * qemu_coroutine_enter runs the coroutine with cpc_continuation_run on the
 * caller's native stack; qemu_coroutine_yield parks the continuation in
 * the Coroutine (cpc_park), which ends the run.  Coroutines the running
 * one woke meanwhile (its wake-up list) are entered next, depth first,
 * before enter returns, as in QEMU.
 *
 * The pool keeps ended coroutines with their (empty) continuations, per
 * OS thread, up to pool_max (64, QEMU's batch size, by default).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "qemu_internal.h"

#define CPC_LIKELY(x) __builtin_expect(!!(x), 1)
#define CPC_UNLIKELY(x) __builtin_expect(!!(x), 0)

CPC_FRAMES_BEGIN
/* The bottom frame: qco_start until the entry point runs, qco_end after. */
struct qco_base {
    Coroutine *co;
    CoroutineEntry *entry;
    void *opaque;
    cpc_function *cpc_fn;
};
CPC_FRAMES_END

/* What a cps function pointer is in C: its entry point. */
typedef cpc_continuation *qco_entry_cps(cpc_continuation *k, void *opaque);

#define QCO_POOL_DEFAULT 64

static _Thread_local Coroutine *pool_head;
static _Thread_local unsigned pool_len;
static unsigned pool_max = QCO_POOL_DEFAULT;

/* `caller` of a coroutine entered from native code. */
static Coroutine qco_native_caller;

void cpc__qemu_fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("qemu-coroutine: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}

static cpc_continuation *qco_end(cpc_continuation *k)
{
    CPC_DROP(k, struct qco_base);
    return k;
}

static cpc_continuation *qco_start(cpc_continuation *k)
{
    struct qco_base *b = CPC_TOP(k, struct qco_base);
    qco_entry_cps *entry = (qco_entry_cps *)(void (*)(void))b->entry;
    b->cpc_fn = qco_end;
    k = entry(k, b->opaque);
    /* The entry point returned without suspending (the usual case for a
       short coroutine): end at once, without a trip through the
       trampoline to qco_end. */
    if (k != NULL && k->length == sizeof(struct qco_base))
        CPC_DROP(k, struct qco_base);
    return k;
}

static inline Coroutine *qco_self(cpc_continuation *k)
{
    if (k == NULL || k->length < sizeof(struct qco_base))
        return NULL;
    /* the bottom frame, at c[0] (aligned: c is) */
    const struct qco_base *b = (const struct qco_base *)(const void *)k->c;
    return b->cpc_fn == qco_end ? b->co : NULL;
}

Coroutine *qemu_coroutine_self(cpc_continuation *k)
{
    return qco_self(k);
}

/* coroutine_fn void qemu_coroutine_yield(void), on the continuation ABI:
   the hottest call of the API (every enter ends in one), so it is written
   here, where finding the coroutine is inline, rather than in CPC. */
cpc_continuation *qemu_coroutine_yield__cps(cpc_continuation *k)
{
    Coroutine *self = qco_self(k);
    if (CPC_UNLIKELY(self == NULL))
        cpc__qemu_fatal("qemu_coroutine_yield called outside a coroutine");
    return cpc_park__cps(k, &self->cont);
}

bool qemu_in_coroutine(cpc_continuation *k)
{
    return qemu_coroutine_self(k) != NULL;
}

/* Write the base frame of a coroutine about to start: at the bottom of
   k, which has room for it (it is new, reserved for it, or a pooled
   coroutine's, which has held one). */
static inline void qco_set_base(cpc_continuation *k, Coroutine *co,
                                CoroutineEntry *entry, void *opaque)
{
    k->length = sizeof(struct qco_base);
    struct qco_base *b = (struct qco_base *)(void *)k->c;
    b->co = co;
    b->entry = entry;
    b->opaque = opaque;
    b->cpc_fn = qco_start;
}

static __attribute__((noinline)) Coroutine *qco_new(void)
{
    Coroutine *co = malloc(sizeof *co);
    if (co == NULL)     /* QEMU's interface cannot report it: exit */
        cpc_out_of_memory("a coroutine", sizeof *co);
    co->caller = NULL;
    co->wakeup_head = NULL;
    co->wakeup_tail = &co->wakeup_head;
    co->co_queue_next = NULL;
    co->locks_held = 0;
    co->cont = cpc_continuation_new(sizeof(struct qco_base));
    return co;
}

Coroutine *qemu_coroutine_create(CoroutineEntry *entry, void *opaque)
{
    /* A pooled coroutine ended with its links and counts clear, and keeps
       its empty continuation; the pool's path reads nothing else. */
    Coroutine *co = pool_head;
    if (CPC_LIKELY(co != NULL)) {
        pool_head = co->pool_next;
        pool_len--;
    } else {
        co = qco_new();
    }
    co->entry = entry;
    co->entry_arg = opaque;
    co->pool_next = NULL;
    qco_set_base(co->cont, co, entry, opaque);
    return co;
}

/* co ended; k is its empty continuation. */
static void qco_delete(Coroutine *co, cpc_continuation *k)
{
    if (co->locks_held != 0)
        cpc__qemu_fatal("coroutine %p ended holding %u lock(s)", (void *)co,
                        co->locks_held);
    if (pool_len < pool_max) {
        co->entry = NULL;           /* ended: entering it is an error */
        co->cont = k;
        co->pool_next = pool_head;
        pool_head = co;
        pool_len++;
        return;
    }
    cpc_continuation_free(k);
    free(co);
}

/* cpc_continuation_run(k), but a new coroutine's entry point starts here,
   without a trip through the trampoline: a short coroutine often ends
   before it suspends.  The budget is set and restored as the trampoline
   does.  (The debug build takes the trampoline, whose one-shot checks
   follow every run.) */
static inline cpc_continuation *qco_run(cpc_continuation *k)
{
#ifndef CPC_DEBUG
    if (cpc_top_function(k) == qco_start) {
        int saved = cpc_budget;
        cpc_budget = CPC_DIRECT_BUDGET;
        k = qco_start(k);
        cpc_budget = saved;
        if (k == NULL || k->length == 0)
            return k;
    }
#endif
    return cpc_continuation_run(k);
}

/* Run `to` until it yields or ends; returns what cpc_continuation_run
   returned (its empty continuation if it ended, NULL if it yielded). */
static inline cpc_continuation *qco_run_once(Coroutine *to)
{
    if (CPC_UNLIKELY(to->caller != NULL))
        cpc__qemu_fatal("coroutine %p re-entered recursively", (void *)to);
    if (CPC_UNLIKELY(to->entry == NULL))
        cpc__qemu_fatal("coroutine %p entered after it ended", (void *)to);
    cpc_continuation *k = to->cont;
    if (CPC_UNLIKELY(k == NULL))
        cpc__qemu_fatal("coroutine %p entered while it is not suspended "
                        "(it waits in the CPC scheduler)", (void *)to);
    to->cont = NULL;
    to->caller = &qco_native_caller;
    k = qco_run(k);
    to->caller = NULL;
    return k;
}

/* After a run of `to`: keep or free it if it ended, check that it yielded
   otherwise. */
static inline void qco_settle(Coroutine *to, cpc_continuation *k)
{
    if (k != NULL)
        qco_delete(to, k);
    else if (CPC_UNLIKELY(to->cont == NULL))
        cpc__qemu_fatal("coroutine %p suspended without yielding (a CPC "
                        "primitive such as cpc_sleep or cpc_wait in a QEMU "
                        "coroutine?)", (void *)to);
}

/* Take the coroutines `to` woke while it ran, in order. */
static inline Coroutine *qco_take_wakeups(Coroutine *to)
{
    Coroutine *woken = to->wakeup_head;
    to->wakeup_head = NULL;
    to->wakeup_tail = &to->wakeup_head;
    return woken;
}

/* Enter the coroutines of a wake-up list, in order, and those they wake
   (depth first: a coroutine's wake-ups run before older pending ones). */
static __attribute__((noinline)) void qco_enter_woken(Coroutine *pending)
{
    while (pending != NULL) {
        Coroutine *to = pending;
        pending = to->co_queue_next;
        to->co_queue_next = NULL;
        cpc_continuation *k = qco_run_once(to);
        if (to->wakeup_head != NULL) {
            Coroutine **tail = to->wakeup_tail;
            Coroutine *woken = qco_take_wakeups(to);
            *tail = pending;
            pending = woken;
        }
        qco_settle(to, k);
    }
}

/* Run co, then the coroutines it woke.  The common case -- co woke
   nobody -- stays a short function with few registers to save. */
void qemu_coroutine_enter(Coroutine *co)
{
    co->co_queue_next = NULL;
    cpc_continuation *k = qco_run_once(co);
    if (CPC_UNLIKELY(co->wakeup_head != NULL)) {
        Coroutine *woken = qco_take_wakeups(co);
        qco_settle(co, k);
        qco_enter_woken(woken);
        return;
    }
    qco_settle(co, k);
}

void qemu_coroutine_enter_if_inactive(Coroutine *co)
{
    if (!qemu_coroutine_entered(co))
        qemu_coroutine_enter(co);
}

bool qemu_coroutine_entered(Coroutine *co)
{
    return co->caller != NULL;
}

void cpc__qemu_wake(cpc_continuation *k, Coroutine *co)
{
    Coroutine *self = qemu_coroutine_self(k);
    if (self == NULL) {
        qemu_coroutine_enter(co);
        return;
    }
    if (self == co)
        cpc__qemu_fatal("coroutine %p wakes itself", (void *)co);
    co->co_queue_next = NULL;
    *self->wakeup_tail = co;
    self->wakeup_tail = &co->co_queue_next;
}

void qemu_coroutine_inc_pool_size(unsigned int additional_pool_size)
{
    pool_max += additional_pool_size;
}

void qemu_coroutine_dec_pool_size(unsigned int removing_pool_size)
{
    pool_max = removing_pool_size > pool_max ? 0 : pool_max - removing_pool_size;
    while (pool_len > pool_max) {
        Coroutine *co = pool_head;
        pool_head = co->pool_next;
        pool_len--;
        cpc_continuation_free(co->cont);
        free(co);
    }
}
