/* cpc/cpc_ev.h -- run a CPC scheduler inside a libev loop (embed/cpc_ev.c,
 * libcpc_ev.a; link with -lev).
 *
 * The adapter watches the scheduler's backend fd with an ev_io, its next
 * timeout with an ev_timer, and keeps an ev_idle running while threads are
 * runnable; each of them calls cpc_scheduler_run_once.  An ev_prepare
 * re-arms them before libev blocks.  Once nothing can run on any CPC
 * scheduler the watchers stop counting for the loop (ev_unref), so ev_run
 * returns when the rest of the program's watchers are done too; but they
 * keep watching: the program's callbacks may hand work to CPC at any time
 * (cpc_spawn, cpc_signal, ...), and ev_run then goes on until it is done.
 * Everything runs on the loop's thread, which is the scheduler's thread
 * during each callback.  Fairness: libev runs its other callbacks between
 * any two passes, and a pass runs at most 16384 threads
 * (docs/multicore.md). */
#ifndef CPC_EV_H
#define CPC_EV_H

#include <ev.h>
#include <cpc/cpc_runtime.h>

typedef struct cpc_ev cpc_ev;

/* Start driving s (cpc_scheduler_default() or one from cpc_scheduler_new)
   from loop.  NULL with errno ENOMEM. */
cpc_ev *cpc_ev_start(struct ev_loop *loop, cpc_sched *s);
/* Stop the watchers and free the adapter (the scheduler stays). */
void cpc_ev_stop(cpc_ev *a);

#endif
