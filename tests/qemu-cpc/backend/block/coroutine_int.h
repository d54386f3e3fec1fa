/* tests/qemu-cpc/backend/block/coroutine_int.h -- stand-in for QEMU 1.6's
 * include/block/coroutine_int.h: struct Coroutine and the interface
 * between the generic layer (qemu-coroutine.cpc here) and a backend
 * (lib/qemu/backend/coroutine-cpc.c, compiled unchanged), with the few
 * queue macros both use. */
#ifndef BLOCK_COROUTINE_INT_H
#define BLOCK_COROUTINE_INT_H

#include "block/coroutine.h"

/* Tail queues, laid out as QEMU's qemu/queue.h lays them out: the head
   holds the first element and the address of the last `next` field. */
#define QTAILQ_HEAD(name, type) \
    struct name { struct type *tqh_first; struct type **tqh_last; }
#define QTAILQ_ENTRY(type) \
    struct { struct type *tqe_next; struct type **tqe_prev; }
#define QTAILQ_INIT(head) do { \
        (head)->tqh_first = NULL; \
        (head)->tqh_last = &(head)->tqh_first; \
    } while (0)
#define QTAILQ_FIRST(head) ((head)->tqh_first)
#define QTAILQ_INSERT_TAIL(head, elm, field) do { \
        (elm)->field.tqe_next = NULL; \
        (elm)->field.tqe_prev = (head)->tqh_last; \
        *(head)->tqh_last = (elm); \
        (head)->tqh_last = &(elm)->field.tqe_next; \
    } while (0)
#define QTAILQ_REMOVE(head, elm, field) do { \
        if ((elm)->field.tqe_next != NULL) \
            (elm)->field.tqe_next->field.tqe_prev = (elm)->field.tqe_prev; \
        else \
            (head)->tqh_last = (elm)->field.tqe_prev; \
        *(elm)->field.tqe_prev = (elm)->field.tqe_next; \
    } while (0)

typedef enum {
    COROUTINE_YIELD = 1,
    COROUTINE_TERMINATE = 2,
} CoroutineAction;

struct Coroutine {
    CoroutineEntry *entry;
    void *entry_arg;
    Coroutine *caller;          /* who entered it; NULL while it is not running */
    Coroutine *pool_next;       /* the generic layer's free list */
    /* coroutines to enter once this one yields or ends */
    QTAILQ_HEAD(, Coroutine) co_queue_wakeup;
    QTAILQ_ENTRY(Coroutine) co_queue_next;
};

/* The backend. */
Coroutine *qemu_coroutine_new(void);
void qemu_coroutine_delete(Coroutine *co);
CoroutineAction qemu_coroutine_switch(Coroutine *from, Coroutine *to,
                                      CoroutineAction action);
#ifndef QEMU_COROUTINE_CPC
Coroutine *qemu_coroutine_self_int(void) __attribute__((cpc_need_cont));
#endif

/* The generic layer: enter every coroutine queued on co's wake-up queue. */
void qemu_co_queue_run_restart(Coroutine *co);

/* Trace point of the generic layer, defined by the program: `co` ended
   (QEMU's trace_qemu_coroutine_terminate). */
void trace_qemu_coroutine_terminate(Coroutine *co);

#endif
