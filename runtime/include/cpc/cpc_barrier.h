/* cpc/cpc_barrier.h -- barriers (library, written in CPC). */
#ifndef CPC_BARRIER_H
#define CPC_BARRIER_H

#include <cpc/cpc_runtime.h>

#pragma GCC visibility push(default)

typedef struct cpc_barrier cpc_barrier;

/* A barrier for `count` threads; NULL with errno EINVAL if count <= 0,
   ENOMEM. */
cpc_barrier *cpc_barrier_get(int count);
/* Wait until `count` threads have arrived; the count-th arrival wakes all
   the others in arrival order (FIFO) and frees the barrier. */
cps void cpc_barrier_await(cpc_barrier *b);

#pragma GCC visibility pop

#endif
