/* A yield in cps code that an OS thread outside every scheduler's loop
   runs (cpc_continuation_run on a thread of its own, which never entered
   a loop) returns at once: nothing else can run there, so the code goes
   on and the run returns its continuation, empty.  Optimised code yields
   inline, reading the run queue of the loop it is in: there, the
   runtime's empty, read-only stand-in (cpc_runtime.h), whose empty queue
   sends the yield to the function.  (That the stand-in is in place from a
   thread's first instruction, before any run, t_spawn_from_foreign_thread
   checks: its inline spawns read it.) */
#include "cps_test.h"
#include <pthread.h>

#define YIELDS 3

CPC_FRAMES_BEGIN
struct spin__frame { int left; cpc_function *cpc_fn; };
struct spin__start { cpc_function *cpc_fn; };
CPC_FRAMES_END

static int resumed;

/* cps void spin(void) { for (int left = YIELDS; left > 0; left--)
                             { cpc_yield(); resumed++; } } */
static cpc_continuation *spin__resume(cpc_continuation *k)
{
    struct spin__frame *f = CPC_TOP(k, struct spin__frame);
    resumed++;
    if (--f->left == 0) {
        (void)CPC_POP(k, struct spin__frame);
        return k;
    }
    return cpc_yield__cps(k);
}

static cpc_continuation *spin__start(cpc_continuation *k)
{
    (void)CPC_POP_FIRST(k, struct spin__start);
    struct spin__frame *f = CPC_PUSH(k, struct spin__frame);
    f->left = YIELDS;
    f->cpc_fn = spin__resume;
    return cpc_yield__cps(k);
}

static void *foreign(void *arg)
{
    cpc_continuation *k = cpc_continuation_new(
        sizeof(struct spin__start) + sizeof(struct spin__frame));
    struct spin__start *s = CPC_PUSH_FIRST(k, struct spin__start);
    s->cpc_fn = spin__start;
    cpc_continuation *r = cpc_continuation_run(k);
    *(const char **)arg = r == k ? "returned its continuation"
                        : r == NULL ? "suspended" : "ANOTHER CONTINUATION";
    CT_CHECK(r == NULL || r->length == 0, "frames left: %u", r->length);
    if (r != NULL)
        cpc_continuation_free(r);
    return NULL;
}

int main(void)
{
    pthread_t t;
    const char *result = "not run";
    CT_CHECK_RC(pthread_create(&t, NULL, foreign, &result));
    CT_CHECK_RC(pthread_join(t, NULL));
    CT_OUT("foreign run: %s, resumed %d times\n", result, resumed);
    return 0;
}
