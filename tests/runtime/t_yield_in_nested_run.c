/* A yield in cps code run by cpc_continuation_run, nested in a thread of
   the default scheduler's loop, suspends that continuation (the run
   returns NULL, and the scheduler runs it later, after the threads queued
   before it); it never runs another thread inside the nested run.  In
   optimised code the yield is inline and, called from the loop's own
   trampoline, switches directly to the next thread (cpc_runtime.h): the
   nested run must not be taken for the loop's trampoline. */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct inner__frame { cpc_function *cpc_fn; };
struct inner__start { cpc_function *cpc_fn; };
CPC_FRAMES_END

/* The nested code: `cpc_yield(); log("inner resumed");` */
static cpc_continuation *inner__resume(cpc_continuation *k)
{
    (void)CPC_POP(k, struct inner__frame);
    CT_OUT("inner resumed\n");
    return k;
}

static cpc_continuation *inner__start(cpc_continuation *k)
{
    (void)CPC_POP_FIRST(k, struct inner__start);
    struct inner__frame *f = CPC_PUSH(k, struct inner__frame);
    f->cpc_fn = inner__resume;
    return cpc_yield__cps(k);
}

/* Native code called by thread A: runs the inner continuation nested. */
static void run_nested(void)
{
    cpc_continuation *k = cpc_continuation_new(2 * sizeof(struct inner__frame));
    struct inner__start *s = CPC_PUSH_FIRST(k, struct inner__start);
    s->cpc_fn = inner__start;
    CT_OUT("A: nested run\n");
    cpc_continuation *r = cpc_continuation_run(k);
    CT_OUT("A: nested run -> %s\n", r == NULL ? "suspended" :
           r == k ? "returned its continuation" : "ANOTHER THREAD'S CONTINUATION");
}

/* cps void a(void) { run_nested(); }   cps void b(void) { log("B"); } */
static cpc_continuation *a__cps(cpc_continuation *k)
{
    run_nested();
    CT_OUT("A: done\n");
    return k;
}

static cpc_continuation *b__cps(cpc_continuation *k)
{
    CT_OUT("B ran\n");
    return k;
}

CT_DEFINE_SPAWN0(a)
CT_DEFINE_SPAWN0(b)

int main(void)
{
    a__spawn();
    b__spawn();
    cpc_main_loop();
    CT_OUT("done\n");
    return 0;
}
