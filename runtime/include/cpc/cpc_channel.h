/* cpc/cpc_channel.h -- channels between attached threads (library,
 * written in CPC; lib/channel.cpc).
 *
 * A channel is a bounded FIFO of non-NULL pointers.  Senders wait while it
 * is full, receivers while it is empty; waiting threads are served in the
 * order they came.  Closing it wakes everybody: later sends fail, receives
 * drain what is left and then return NULL. */
#ifndef CPC_CHANNEL_H
#define CPC_CHANNEL_H

#include <cpc/cpc_runtime.h>

#pragma GCC visibility push(default)

typedef struct cpc_channel cpc_channel;

/* A channel holding up to `capacity` items; NULL with errno EINVAL if
   capacity <= 0, ENOMEM. */
cpc_channel *cpc_channel_get(int capacity);
/* The same for threads of several schedulers (docs/multicore.md): a
   channel guarded by a mutex, whose waiters may be on any scheduler. */
cpc_channel *cpc_channel_get_shared(int capacity);
/* Queue item (not NULL), waiting while the channel is full: 0, or -1 with
   errno EPIPE if the channel is (or gets) closed, EINVAL if item is NULL.
   With room in the channel it does not suspend: no cooperation point, the
   calling thread goes on (a waiting receiver is woken, and runs later). */
cps int cpc_channel_send(cpc_channel *ch, void *item);
/* The oldest item, waiting while the channel is empty; NULL once the
   channel is closed and empty.  A non-empty channel: no suspension. */
cps void *cpc_channel_recv(cpc_channel *ch);
/* Items queued now. */
int cpc_channel_count(cpc_channel *ch);
/* No more sends; wakes every waiting sender (-1/EPIPE) and receiver. */
void cpc_channel_close(cpc_channel *ch);
/* Free a channel nobody waits on any more (e.g. after close, once its
   receivers saw NULL).  Queued items are not freed. */
void cpc_channel_free(cpc_channel *ch);

#pragma GCC visibility pop

#endif
