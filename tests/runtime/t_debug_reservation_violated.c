/* Debug runtime: a cps function that pushes more than its entry reserved
   (a translator bug: pushes after cpc_enter are unchecked) is caught
   before it writes, and the message names the thread's top frame. */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct outer__frame_1 { cpc_function *cpc_fn; };
struct overrun__frame_1 { char pad[56]; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *overrun__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct overrun__frame_1);
    return k;
}

/* A buggy entry: reserves 8 bytes, then pushes a 64-byte frame. */
static cpc_continuation *overrun__cps(cpc_continuation *k)
{
    CT_CHECK(cpc_enter(k, sizeof(cpc_function *)), "no room for 8 bytes");
    CT_CHECK(k->size - k->length < sizeof(struct overrun__frame_1),
             "the frame fits: nothing to catch");
    struct overrun__frame_1 *cpc_f = CPC_PUSH_RESERVED(k, struct overrun__frame_1);
    cpc_f->cpc_fn = overrun__resume_1;
    return cpc_yield__cps(k);
}

static cpc_continuation *outer__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct outer__frame_1);
    return k;
}

/* cps void outer(void) { overrun(); } */
static cpc_continuation *outer__cps(cpc_continuation *k)
{
    struct outer__frame_1 *cpc_f = CPC_PUSH(k, struct outer__frame_1);
    cpc_f->cpc_fn = outer__resume_1;
    return overrun__cps(k);
}
CT_DEFINE_SPAWN0(outer)

int main(void)
{
    outer__spawn();
    cpc_main_loop();
    CT_OUT("not caught\n");
    return 0;
}
