/*
 * lib/qemu/backend/coroutine-cpc.c -- a coroutine backend for QEMU 1.6
 * (the backend interface of include/block/coroutine_int.h:
 * qemu_coroutine_new, qemu_coroutine_delete, qemu_coroutine_switch) on
 * CPC continuations, written only against the continuation ABI of
 * <cpc/cpc_runtime.h> (docs/abi.md).  It replaces QEMU's own
 * coroutine-cpc.c when QEMU is configured with --with-coroutine=cpc and
 * the files that hold cooperative code are compiled by cpcc
 * (tests/qemu-cpc/build.sh; docs/qemu-cpc.md).
 *
 * What it relies on, all of it in the ABI:
 *
 *  - A cps function pointer is its C entry point: a CoroutineEntry * holds
 *    `cpc_continuation *entry(cpc_continuation *k, void *opaque)`.
 *
 *  - The trampoline is `while (k != NULL && k->length > 0) k =
 *    cpc_top_function(k)(k);` with cpc_budget set to CPC_DIRECT_BUDGET
 *    before each frame.  A cps call is a direct C call, and so is a
 *    return in optimised code (it runs the caller's resume function at
 *    once) while the budget lasts; once cpc_budget is 0, the next return
 *    gives k back to the trampoline instead.  So a coroutine that has
 *    asked to yield sets the budget to 0 and is stopped between two
 *    frames, after its call to qemu_coroutine_yield has returned and
 *    before the code that follows it runs.
 *
 *  - cpc_need_cont functions get the current continuation (NULL from
 *    native code).  The bottom frame of a coroutine's continuation names
 *    its Coroutine, so qemu_coroutine_self_int finds the running coroutine
 *    from the continuation it is given, with no thread-local variable
 *    updated at each switch ("QEMU/CPC", section 6.3:
 *    docs/references.md).  From native code it
 *    returns the thread's leader, QEMU's stand-in for "not a coroutine".
 *
 * QEMU's generic code (qemu-coroutine.c, translated by cpcc) does the
 * rest unchanged: qemu_coroutine_enter sets co->caller and calls
 * qemu_coroutine_switch(self, co); qemu_coroutine_yield clears
 * self->caller and calls qemu_coroutine_switch(self, caller).  Here the
 * first runs co's continuation on the native stack until it yields or
 * ends; the second only marks the coroutine as yielding, and the run
 * loop parks its continuation when the yield returns.  The coroutine's
 * wake-up queue is then run by QEMU's coroutine_swap on the entering
 * side, as with every backend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QEMU_COROUTINE_CPC
#include "qemu-common.h"
#include "block/coroutine_int.h"

CPC_FRAMES_BEGIN
/* The bottom frame of every coroutine's continuation: cpc_fn is
   coroutine_start until the entry point runs, coroutine_end after. */
struct coroutine_base {
    Coroutine *co;
    cpc_function *cpc_fn;
};
CPC_FRAMES_END

typedef struct CoroutineCPC {
    Coroutine base;
    cpc_continuation *cont;     /* held while the coroutine is not running */
    int yielding;               /* qemu_coroutine_switch away was called */
} CoroutineCPC;

/* What a CoroutineEntry * is in C: the entry point of a cps function. */
typedef cpc_continuation *coroutine_entry_cps(cpc_continuation *k, void *opaque);

/* A misuse of the coroutine API: a bug, which aborts for its core file
   (docs/abi.md, "Running out of memory": memory that runs out is reported
   by cpc_out_of_memory instead). */
static __attribute__((noreturn)) void coroutine_cpc_misuse(const char *what)
{
    fprintf(stderr, "coroutine-cpc: %s\n", what);
    fflush(stderr);
    abort();
}

static cpc_continuation *coroutine_end(cpc_continuation *k)
{
    CPC_DROP(k, struct coroutine_base);
    return k;
}

static cpc_continuation *coroutine_start(cpc_continuation *k)
{
    struct coroutine_base *b = CPC_TOP(k, struct coroutine_base);
    Coroutine *co = b->co;
    coroutine_entry_cps *entry = (coroutine_entry_cps *)(void (*)(void))co->entry;
    b->cpc_fn = coroutine_end;
    return entry(k, co->entry_arg);
}

Coroutine *qemu_coroutine_new(void)
{
    CoroutineCPC *co = calloc(1, sizeof *co);
    if (co == NULL)
        cpc_out_of_memory("a coroutine", sizeof *co);
    /* Never NULL: out of memory, it exits as cpc_out_of_memory does. */
    co->cont = cpc_continuation_new(sizeof(struct coroutine_base));
    return &co->base;
}

void qemu_coroutine_delete(Coroutine *co_)
{
    CoroutineCPC *co = DO_UPCAST(CoroutineCPC, base, co_);
    if (co->cont != NULL)
        cpc_continuation_free(co->cont);
    free(co);
}

/* The leader stands for native code: the `self` of a native caller. */
static __thread CoroutineCPC leader;

static CoroutineCPC *coroutine_of(cpc_continuation *k)
{
    const struct coroutine_base *b;
    if (k == NULL || k->length < sizeof(struct coroutine_base))
        return NULL;
    b = (const struct coroutine_base *)(const void *)k->c;
    return b->cpc_fn == coroutine_end ? (CoroutineCPC *)b->co : NULL;
}

/* The C form of the headers' cpc_need_cont declarations, which
   QEMU_COROUTINE_CPC hides above (their C text has no continuation
   parameter): so that QEMU's -Wmissing-prototypes finds a prototype. */
Coroutine *qemu_coroutine_self_int(cpc_continuation *k);
bool qemu_in_coroutine(cpc_continuation *k);

Coroutine *qemu_coroutine_self_int(cpc_continuation *k)
{
    CoroutineCPC *co = coroutine_of(k);
    if (co != NULL)
        return &co->base;
    if (leader.base.co_queue_wakeup.tqh_last == NULL)
        QTAILQ_INIT(&leader.base.co_queue_wakeup);
    return &leader.base;
}

bool qemu_in_coroutine(cpc_continuation *k)
{
    return coroutine_of(k) != NULL;
}

/* Run `to` from its continuation until it yields (its continuation is
   kept) or ends (its frames run out). */
static CoroutineAction coroutine_run(CoroutineCPC *to)
{
    cpc_continuation *k = to->cont;
    int saved_budget = cpc_budget;

    if (k->length == 0) {
        /* first entry, or reused from QEMU's pool after it ended */
        struct coroutine_base *b = CPC_PUSH_FIRST(k, struct coroutine_base);
        b->co = &to->base;
        b->cpc_fn = coroutine_start;
    }
    to->cont = NULL;
    to->yielding = 0;
    while (k->length > 0 && !to->yielding) {
        cpc_budget = CPC_DIRECT_BUDGET;
        k = cpc_top_function(k)(k);
        if (k == NULL)
            coroutine_cpc_misuse("a coroutine suspended in a CPC primitive (cpc_sleep, "
                                "cpc_wait, cpc_io_wait...): QEMU coroutines suspend "
                                "only with qemu_coroutine_yield");
    }
    cpc_budget = saved_budget;
    to->cont = k;
    return k->length == 0 ? COROUTINE_TERMINATE : COROUTINE_YIELD;
}

CoroutineAction qemu_coroutine_switch(Coroutine *from_, Coroutine *to_,
                                      CoroutineAction action)
{
    CoroutineCPC *from = DO_UPCAST(CoroutineCPC, base, from_);
    CoroutineCPC *to = DO_UPCAST(CoroutineCPC, base, to_);

    (void)action;
    if (to == &leader) {
        /* qemu_coroutine_yield: back to the native code that entered the
           coroutine (qemu_coroutine_enter is native, so a coroutine's
           caller is always the leader).  Its run loop stops once the
           yield has returned. */
        if (from == &leader)
            coroutine_cpc_misuse("qemu_coroutine_yield called outside a coroutine");
        from->yielding = 1;
        /* The yield's return, and every return after it, comes back to
           the run loop rather than into the caller's resume function
           (docs/abi.md, "The call budget"). */
        cpc_budget = 0;
        return COROUTINE_YIELD;
    }
    if (to->cont == NULL)
        coroutine_cpc_misuse("a coroutine entered while it runs");
    return coroutine_run(to);
}
