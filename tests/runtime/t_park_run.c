/* cpc_continuation_run: runs a new continuation on the caller's stack
   until it parks (NULL), a parked one until it parks again, and returns
   the continuation, empty, when its frames run out; the caller may push a
   new frame into it and run it again, then free it.  No scheduler is
   involved (no cpc_main_loop). */
#include "cps_test.h"

static cpc_continuation *slot;
static int steps;

CPC_FRAMES_BEGIN
struct twice__frame { int step; cpc_function *cpc_fn; };
struct start__frame { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *twice__resume(cpc_continuation *k)
{
    struct twice__frame *f = CPC_TOP(k, struct twice__frame);
    steps++;
    if (++f->step < 3)
        return cpc_park__cps(k, &slot);
    CPC_DROP(k, struct twice__frame);
    return k;
}

static cpc_continuation *twice__start(cpc_continuation *k)
{
    (void)CPC_POP(k, struct start__frame);
    struct twice__frame *f = CPC_PUSH(k, struct twice__frame);
    f->step = 0;
    f->cpc_fn = twice__resume;
    steps++;
    return cpc_park__cps(k, &slot);
}

static void push_start(cpc_continuation **k)
{
    struct start__frame *s = CPC_PUSH(*k, struct start__frame);
    s->cpc_fn = twice__start;
}

int main(void)
{
    cpc_continuation *k = cpc_continuation_new(8);
    for (int round = 1; round <= 2; round++) {
        push_start(&k);
        cpc_continuation *r = cpc_continuation_run(k);
        CT_OUT("round %d: run -> %s, steps %d\n", round, r ? "ended" : "parked", steps);
        while ((r = cpc_continuation_run(slot)) == NULL)
            CT_OUT("round %d: run -> parked, steps %d\n", round, steps);
        CT_OUT("round %d: run -> ended (length %u), steps %d\n", round,
               (unsigned)r->length, steps);
        k = r;
    }
    cpc_continuation_free(k);
    return 0;
}
