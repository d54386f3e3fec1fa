/*
 * cpc_ev.c -- a CPC scheduler driven by a libev loop (cpc/cpc_ev.h).
 *
 * Four watchers: an ev_io on the backend fd (the scheduler's epoll set,
 * readable when an fd a thread waits for is ready or another OS thread
 * queued work in the inbox), an ev_timer for the earliest sleeper, an
 * ev_idle that runs a pass whenever libev has nothing more urgent while
 * threads are runnable (libev does not block while an idle watcher is
 * active), and an ev_prepare, called before libev blocks, which asks the
 * scheduler for its timeout and arms the others accordingly.
 */
#include <errno.h>
#include <stdlib.h>

#include "cpc/cpc_ev.h"

struct cpc_ev {
    struct ev_loop *loop;
    cpc_sched *s;
    ev_io io;
    ev_timer timer;
    ev_idle idle;
    ev_prepare prepare;
};

static void ev_adapter_stop_watchers(cpc_ev *a)
{
    ev_io_stop(a->loop, &a->io);
    ev_timer_stop(a->loop, &a->timer);
    ev_idle_stop(a->loop, &a->idle);
    ev_prepare_stop(a->loop, &a->prepare);
}

static void ev_adapter_run(cpc_ev *a)
{
    if (!cpc_scheduler_run_once(a->s))
        ev_adapter_stop_watchers(a);    /* nothing can run any more */
}

static void ev_adapter_io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    (void)revents;
    ev_adapter_run(w->data);
}

static void ev_adapter_timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
    (void)loop;
    (void)revents;
    ev_adapter_run(w->data);
}

static void ev_adapter_idle_cb(struct ev_loop *loop, ev_idle *w, int revents)
{
    (void)loop;
    (void)revents;
    ev_adapter_run(w->data);
}

/* Before libev blocks: run now (idle), later (timer), or on the fd only. */
static void ev_adapter_prepare_cb(struct ev_loop *loop, ev_prepare *w,
                                  int revents)
{
    cpc_ev *a = w->data;
    (void)revents;
    if (!ev_is_active(&a->io))
        return;
    int timeout = cpc_scheduler_backend_timeout(a->s);
    if (timeout == 0) {
        ev_idle_start(loop, &a->idle);
        return;
    }
    ev_idle_stop(loop, &a->idle);
    ev_timer_stop(loop, &a->timer);
    if (timeout > 0) {
        ev_timer_set(&a->timer, timeout / 1000.0, 0.0);
        ev_timer_start(loop, &a->timer);
    }
}

cpc_ev *cpc_ev_start(struct ev_loop *loop, cpc_sched *s)
{
    cpc_ev *a = calloc(1, sizeof *a);
    if (a == NULL) {
        errno = ENOMEM;
        return NULL;
    }
    a->loop = loop;
    a->s = s;
    ev_io_init(&a->io, ev_adapter_io_cb, cpc_scheduler_backend_fd(s), EV_READ);
    ev_timer_init(&a->timer, ev_adapter_timer_cb, 0.0, 0.0);
    ev_idle_init(&a->idle, ev_adapter_idle_cb);
    ev_prepare_init(&a->prepare, ev_adapter_prepare_cb);
    a->io.data = a->timer.data = a->idle.data = a->prepare.data = a;
    ev_io_start(loop, &a->io);
    ev_prepare_start(loop, &a->prepare);
    ev_idle_start(loop, &a->idle);      /* a first pass: spawned threads */
    return a;
}

void cpc_ev_stop(cpc_ev *a)
{
    if (a == NULL)
        return;
    ev_adapter_stop_watchers(a);
    free(a);
}
