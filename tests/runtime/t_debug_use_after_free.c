/* Debug runtime: a continuation used after its thread ended (cpc_done) is
   caught by the quarantine, naming the dead thread's top frame. */
#include "cps_test.h"

static cpc_continuation *saved;

CPC_FRAMES_BEGIN
struct victim__frame_1 { cpc_function *cpc_fn; };
struct raiser__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *victim__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct victim__frame_1);
    return k;
}

/* Keeps a pointer to its continuation, then ends with cpc_done. */
static cpc_continuation *victim__cps(cpc_continuation *k)
{
    struct victim__frame_1 *cpc_f = CPC_PUSH(k, struct victim__frame_1);
    cpc_f->cpc_fn = victim__resume_1;
    saved = k;
    return cpc_done__cps(k);
}
CT_DEFINE_SPAWN0(victim)

/* Later, another thread resumes the dead one. */
static cpc_continuation *raiser__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct raiser__frame_1);
    cpc_spawn_continuation(saved);
    return k;
}
static cpc_continuation *raiser__cps(cpc_continuation *k)
{
    struct raiser__frame_1 *cpc_f = CPC_PUSH(k, struct raiser__frame_1);
    cpc_f->cpc_fn = raiser__resume_1;
    return cpc_yield__cps(k);
}
CT_DEFINE_SPAWN0(raiser)

int main(void)
{
    victim__spawn();
    raiser__spawn();
    cpc_main_loop();
    CT_OUT("not caught\n");
    return 0;
}
