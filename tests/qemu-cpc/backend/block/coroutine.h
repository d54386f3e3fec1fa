/* tests/qemu-cpc/backend/block/coroutine.h -- stand-in for QEMU 1.6's
 * public coroutine interface (include/block/coroutine.h): what the test
 * program calls.  The generic layer that implements it is
 * qemu-coroutine.cpc; the backend under it is coroutine-cpc.c. */
#ifndef BLOCK_COROUTINE_H
#define BLOCK_COROUTINE_H

#include "qemu-common.h"

typedef struct Coroutine Coroutine;

/* A coroutine's body: it runs from the first qemu_coroutine_enter, with
   that call's `opaque`, and the coroutine ends when it returns. */
typedef void coroutine_fn CoroutineEntry(void *opaque);

Coroutine *qemu_coroutine_create(CoroutineEntry *entry);
/* Run `co` until it yields or ends; `opaque` is the entry's argument. */
void qemu_coroutine_enter(Coroutine *co, void *opaque);
/* Give control back to whoever entered the running coroutine. */
void coroutine_fn qemu_coroutine_yield(void);
Coroutine *coroutine_fn qemu_coroutine_self(void);

/* Defined by the backend, which takes the continuation explicitly. */
#ifndef QEMU_COROUTINE_CPC
bool qemu_in_coroutine(void) __attribute__((cpc_need_cont));
#endif

#endif
