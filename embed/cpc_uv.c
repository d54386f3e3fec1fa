/*
 * cpc_uv.c -- a CPC scheduler driven by a libuv loop (cpc/cpc_uv.h).
 *
 * Four handles: a uv_poll_t on the backend fd (the scheduler's epoll set,
 * readable when an fd a thread waits for is ready or another OS thread
 * queued work in the inbox), a uv_timer_t for the earliest sleeper, a
 * uv_idle_t that keeps libuv from blocking while threads are runnable
 * (its callback runs a pass), and a uv_prepare_t, called before libuv
 * polls, which asks the scheduler for its timeout and arms the others.
 *
 * Liveness.  The poll and prepare handles are never stopped while the
 * adapter runs: when nothing can run on any scheduler they are only
 * unreferenced (uv_unref), so that uv_run returns once the program's own
 * handles are done, and they still see work handed over later.  Work
 * queued by native code on the loop's thread (a callback spawning or
 * signalling) calls the scheduler's wake-up (cpc_scheduler_set_wakeup),
 * which references them again at once: even when that callback stopped
 * the program's last handle, uv_run goes on until the new work is done.
 * Work from other OS threads makes the backend fd readable.
 */
#include <errno.h>
#include <stdlib.h>

#include "cpc/cpc_uv.h"

struct cpc_uv {
    cpc_sched *s;
    uv_poll_t poll;
    uv_timer_t timer;
    uv_idle_t idle;
    uv_prepare_t prepare;
    int referenced;             /* poll and prepare keep the loop alive */
    int unsure;                 /* work was handed over and no pass has
                                   said since whether anything can run */
    int open;                   /* handles not yet closed */
};

/* CPC has work: keep the loop alive, run a pass before it blocks. */
static void uv_adapter_busy(cpc_uv *a)
{
    if (!a->referenced) {
        a->referenced = 1;
        uv_ref((uv_handle_t *)&a->poll);
        uv_ref((uv_handle_t *)&a->prepare);
    }
}

/* Nothing can run: the loop may return; poll and prepare keep watching. */
static void uv_adapter_idle(cpc_uv *a)
{
    uv_timer_stop(&a->timer);
    uv_idle_stop(&a->idle);
    if (a->referenced) {
        a->referenced = 0;
        uv_unref((uv_handle_t *)&a->poll);
        uv_unref((uv_handle_t *)&a->prepare);
    }
}

static void uv_adapter_run(cpc_uv *a)
{
    a->unsure = 0;
    if (cpc_scheduler_run_once(a->s))
        uv_adapter_busy(a);
    else
        uv_adapter_idle(a);
}

static void uv_adapter_poll_cb(uv_poll_t *h, int status, int events)
{
    (void)status;
    (void)events;
    uv_adapter_run(h->data);
}

static void uv_adapter_timer_cb(uv_timer_t *h)
{
    uv_adapter_run(h->data);
}

static void uv_adapter_idle_cb(uv_idle_t *h)
{
    uv_adapter_run(h->data);
}

static void uv_adapter_idle_start(cpc_uv *a)
{
    a->unsure = 1;
    uv_idle_start(&a->idle, uv_adapter_idle_cb);
}

/* Native code on the loop's thread queued work on the idle scheduler. */
static void uv_adapter_wake(void *arg)
{
    cpc_uv *a = arg;
    uv_adapter_busy(a);
    uv_adapter_idle_start(a);
}

/* Before libuv polls: run now (idle), later (timer), or on the fd only. */
static void uv_adapter_prepare_cb(uv_prepare_t *h)
{
    cpc_uv *a = h->data;
    int timeout = cpc_scheduler_backend_timeout(a->s);
    if (timeout == 0) {
        uv_adapter_busy(a);
        uv_adapter_idle_start(a);
        return;
    }
    if (timeout < 0 && a->unsure) {
        /* Nothing runnable, nobody asleep: a pass says whether the loop
           may return. */
        uv_adapter_run(a);
        timeout = cpc_scheduler_backend_timeout(a->s);
    }
    uv_idle_stop(&a->idle);
    uv_timer_stop(&a->timer);
    if (timeout > 0)
        uv_timer_start(&a->timer, uv_adapter_timer_cb, (uint64_t)timeout, 0);
}

cpc_uv *cpc_uv_start(uv_loop_t *loop, cpc_sched *s)
{
    cpc_uv *a = calloc(1, sizeof *a);
    if (a == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    a->s = s;
    if (uv_poll_init(loop, &a->poll, cpc_scheduler_backend_fd(s)) != 0) {
        free(a);
        errno = EINVAL;
        return NULL;
    }
    uv_timer_init(loop, &a->timer);
    uv_idle_init(loop, &a->idle);
    uv_prepare_init(loop, &a->prepare);
    a->poll.data = a->timer.data = a->idle.data = a->prepare.data = a;
    a->open = 4;
    a->referenced = 1;
    uv_poll_start(&a->poll, UV_READABLE, uv_adapter_poll_cb);
    uv_prepare_start(&a->prepare, uv_adapter_prepare_cb);
    uv_adapter_idle_start(a);   /* a first pass */
    cpc_scheduler_set_wakeup(s, uv_adapter_wake, a);
    return a;
}

static void uv_adapter_closed(uv_handle_t *h)
{
    cpc_uv *a = h->data;
    if (--a->open == 0)
        free(a);
}

void cpc_uv_stop(cpc_uv *a)
{
    if (a == NULL)
        return;
    cpc_scheduler_set_wakeup(a->s, NULL, NULL);
    uv_close((uv_handle_t *)&a->poll, uv_adapter_closed);
    uv_close((uv_handle_t *)&a->timer, uv_adapter_closed);
    uv_close((uv_handle_t *)&a->idle, uv_adapter_closed);
    uv_close((uv_handle_t *)&a->prepare, uv_adapter_closed);
}
