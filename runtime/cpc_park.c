/*
 * cpc_park.c -- parking: continuations that a backend keeps and resumes
 * itself.
 *
 * The scheduler is one way to run threads; a coroutine library built on
 * CPC continuations (QEMU's coroutine API, <cpc/qemu-coroutine.h>) is
 * another: there the caller of "enter" runs the coroutine until it yields,
 * and the coroutine's handle keeps the continuation in between.  Two
 * calls make that safe:
 *
 *   cpc_park(&slot)          (cps) suspends the running thread and stores
 *                            its continuation in slot, for the backend;
 *   cpc_continuation_run(k)  runs a new or parked continuation on the
 *                            calling OS thread until it suspends again (NULL)
 *                            or its frames run out (k, empty, which the
 *                            caller frees or reuses).
 *
 * A parked continuation may also go to the scheduler with
 * cpc_spawn_continuation, or be freed.  The one-shot checks of the debug
 * runtime (cpc_debug.c) follow it through the PARKED state: parking a
 * continuation that is not running, running one that runs or waits
 * elsewhere, or running the same parked continuation twice aborts with a
 * message.
 */
#include "cpc_internal.h"

cpc_continuation *cpc_park__cps(cpc_continuation *k, cpc_continuation **slot)
{
    cpc__dbg_park(k);
    *slot = k;
    return NULL;
}

/* The trampoline of a backend: the scheduler's, without the scheduler.
   The call budget bounds the C stack from here on; the caller's remaining
   budget is restored afterwards, since the caller may itself be cps code
   that called a native function that entered a coroutine. */
cpc_continuation *cpc_continuation_run(cpc_continuation *k)
{
    int saved = cpc_budget;
    struct cpc__sched_head *saved_direct = cpc__tls_direct; /* yields: k or NULL */
    cpc__dbg_run_start(k);
    cpc_budget = CPC_DIRECT_BUDGET;
    cpc__tls_direct = CPC__NO_LOOP;
    while (k->length > 0) {
        cpc__dbg_check_running(k);
        k = cpc_top_function(k)(k);
        if (k == NULL)
            break;
        cpc_budget = CPC_DIRECT_BUDGET;
    }
    if (k != NULL)
        cpc__dbg_run_end(k);
    cpc_budget = saved;
    cpc__tls_direct = saved_direct;
    return k;
}
