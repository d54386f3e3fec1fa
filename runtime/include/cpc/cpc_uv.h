/* cpc/cpc_uv.h -- run a CPC scheduler inside a libuv loop (embed/cpc_uv.c,
 * libcpc_uv.a; link with -luv).
 *
 * The adapter polls the scheduler's backend fd with a uv_poll_t, its next
 * timeout with a uv_timer_t, and keeps a uv_idle_t running while threads
 * are runnable; each of them calls cpc_scheduler_run_once.  A
 * uv_prepare_t re-arms them before libuv blocks.  Once nothing can run on
 * any CPC scheduler the handles stop counting for the loop (uv_unref), so
 * uv_run returns when the rest of the program's handles are done too; but
 * they keep watching: the program's callbacks may hand work to CPC at any
 * time (cpc_spawn, cpc_signal, ...), and uv_run then goes on until it is
 * done.  Fairness: libuv runs its other callbacks between any two passes,
 * and a pass runs at most 16384 threads (docs/multicore.md). */
#ifndef CPC_UV_H
#define CPC_UV_H

#include <uv.h>
#include <cpc/cpc_runtime.h>

typedef struct cpc_uv cpc_uv;

/* Start driving s from loop.  NULL with errno ENOMEM or EINVAL. */
cpc_uv *cpc_uv_start(uv_loop_t *loop, cpc_sched *s);
/* Stop and close the handles; the adapter is freed once libuv has closed
   them (run the loop). */
void cpc_uv_stop(cpc_uv *a);

#endif
