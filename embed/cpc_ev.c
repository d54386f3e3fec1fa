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
 *
 * Liveness.  The io and prepare watchers are never stopped while the
 * adapter runs: when nothing can run on any scheduler they only stop
 * counting for the loop (ev_unref), so that ev_run returns once the
 * program's own watchers are done, and they still see work handed over
 * later.  Work queued by native code on the loop's thread (a callback
 * spawning or signalling) calls the scheduler's wake-up
 * (cpc_scheduler_set_wakeup), which makes them count again at once: even
 * when that callback stopped the program's last watcher, ev_run goes on
 * until the new work is done.  Work from other OS threads makes the
 * backend fd readable.
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
    int referenced;             /* io and prepare keep the loop alive */
    int unsure;                 /* work was handed over and no pass has
                                   said since whether anything can run */
};

/* CPC has work: keep the loop alive. */
static void ev_adapter_busy(cpc_ev *a)
{
    if (!a->referenced) {
        a->referenced = 1;
        ev_ref(a->loop);        /* io */
        ev_ref(a->loop);        /* prepare */
    }
}

/* Nothing can run: the loop may return; io and prepare keep watching. */
static void ev_adapter_idle(cpc_ev *a)
{
    ev_timer_stop(a->loop, &a->timer);
    ev_idle_stop(a->loop, &a->idle);
    if (a->referenced) {
        a->referenced = 0;
        ev_unref(a->loop);
        ev_unref(a->loop);
    }
}

static void ev_adapter_run(cpc_ev *a)
{
    a->unsure = 0;
    if (cpc_scheduler_run_once(a->s))
        ev_adapter_busy(a);
    else
        ev_adapter_idle(a);
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

/* Native code on the loop's thread queued work on the idle scheduler. */
static void ev_adapter_wake(void *arg)
{
    cpc_ev *a = arg;
    ev_adapter_busy(a);
    a->unsure = 1;
    ev_idle_start(a->loop, &a->idle);
}

/* Before libev blocks: run now (idle), later (timer), or on the fd only. */
static void ev_adapter_prepare_cb(struct ev_loop *loop, ev_prepare *w,
                                  int revents)
{
    cpc_ev *a = w->data;
    (void)revents;
    int timeout = cpc_scheduler_backend_timeout(a->s);
    if (timeout == 0) {
        ev_adapter_busy(a);
        a->unsure = 1;
        ev_idle_start(loop, &a->idle);
        return;
    }
    if (timeout < 0 && a->unsure) {
        /* Nothing runnable, nobody asleep, and libev runs prepare watchers
           before idle ones: a pass says whether the loop may return. */
        ev_adapter_run(a);
        timeout = cpc_scheduler_backend_timeout(a->s);
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
    a->referenced = a->unsure = 1;
    ev_io_start(loop, &a->io);
    ev_prepare_start(loop, &a->prepare);
    ev_idle_start(loop, &a->idle);      /* a first pass: spawned threads */
    cpc_scheduler_set_wakeup(s, ev_adapter_wake, a);
    return a;
}

void cpc_ev_stop(cpc_ev *a)
{
    if (a == NULL)
        return;
    cpc_scheduler_set_wakeup(a->s, NULL, NULL);
    ev_adapter_busy(a);         /* stopping a watcher uncounts it */
    ev_io_stop(a->loop, &a->io);
    ev_timer_stop(a->loop, &a->timer);
    ev_idle_stop(a->loop, &a->idle);
    ev_prepare_stop(a->loop, &a->prepare);
    free(a);
}
