/*
 * cpc_uv.c -- a CPC scheduler driven by a libuv loop (cpc/cpc_uv.h).
 *
 * Four handles: a uv_poll_t on the backend fd (the scheduler's epoll set,
 * readable when an fd a thread waits for is ready or another OS thread
 * queued work in the inbox), a uv_timer_t for the earliest sleeper, a
 * uv_idle_t that keeps libuv from blocking while threads are runnable
 * (its callback runs a pass), and a uv_prepare_t, called before libuv
 * polls, which asks the scheduler for its timeout and arms the others.
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
    int active;                 /* the handles run */
    int open;                   /* handles not yet closed */
};

static void uv_adapter_stop_handles(cpc_uv *a)
{
    a->active = 0;
    uv_poll_stop(&a->poll);
    uv_timer_stop(&a->timer);
    uv_idle_stop(&a->idle);
    uv_prepare_stop(&a->prepare);
}

static void uv_adapter_run(cpc_uv *a)
{
    if (a->active && !cpc_scheduler_run_once(a->s))
        uv_adapter_stop_handles(a);     /* nothing can run any more */
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

/* Before libuv polls: run now (idle), later (timer), or on the fd only. */
static void uv_adapter_prepare_cb(uv_prepare_t *h)
{
    cpc_uv *a = h->data;
    if (!a->active)
        return;
    int timeout = cpc_scheduler_backend_timeout(a->s);
    if (timeout == 0) {
        uv_idle_start(&a->idle, uv_adapter_idle_cb);
        return;
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
    a->active = 1;
    uv_poll_start(&a->poll, UV_READABLE, uv_adapter_poll_cb);
    uv_prepare_start(&a->prepare, uv_adapter_prepare_cb);
    uv_idle_start(&a->idle, uv_adapter_idle_cb);   /* a first pass */
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
    uv_adapter_stop_handles(a);
    uv_close((uv_handle_t *)&a->poll, uv_adapter_closed);
    uv_close((uv_handle_t *)&a->timer, uv_adapter_closed);
    uv_close((uv_handle_t *)&a->idle, uv_adapter_closed);
    uv_close((uv_handle_t *)&a->prepare, uv_adapter_closed);
}
