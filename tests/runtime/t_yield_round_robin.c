/* cpc_yield puts the thread at the back of the run queue: three threads
   yielding in a loop interleave round-robin, in spawn order. */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct worker__args { int id; cpc_function *cpc_fn; };
struct worker__frame_1 { int id; int i; cpc_function *cpc_fn; };
union worker__reserve { struct worker__frame_1 f1; };
CPC_FRAMES_END

static cpc_continuation *worker__body(cpc_continuation *k, int cpc_resume,
                                      int id);

static cpc_continuation *worker__resume_1(cpc_continuation *k)
{
    return worker__body(k, 1, 0);
}

static cpc_continuation *worker__bounce(cpc_continuation *k)
{
    struct worker__args *cpc_a = CPC_POP(k, struct worker__args);
    return worker__body(k, 0, cpc_a->id);
}

static CPC_COLD cpc_continuation *worker__defer(cpc_continuation *k, int id)
{
    struct worker__args *cpc_a;
    k = cpc_reserve(k, CPC_MAX(sizeof(struct worker__args), sizeof(union worker__reserve)));
    cpc_a = CPC_PUSH_RESERVED(k, struct worker__args);
    cpc_a->id = id;
    cpc_a->cpc_fn = worker__bounce;
    return k;
}

/* cps void worker(int id)
   { for (int i = 0; i < 4; i++) { printf(...); cpc_yield(); } } */
static cpc_continuation *worker__cps(cpc_continuation *k, int id)
{
    if (!cpc_enter(k, sizeof(union worker__reserve)))
        return worker__defer(k, id);
    return worker__body(k, 0, id);
}

static cpc_continuation *worker__body(cpc_continuation *k, int cpc_resume,
                                      int id)
{
    int i;
    switch (cpc_resume) {
    case 1: goto worker__resumed_1;
    }
    for (i = 0; i < 4; i++) {
        CT_OUT("%c%d%s", 'A' + id, i, id == 2 ? "\n" : " ");
        {
            struct worker__frame_1 *cpc_f = CPC_PUSH_RESERVED(k, struct worker__frame_1);
            cpc_f->id = id;
            cpc_f->i = i;
            cpc_f->cpc_fn = worker__resume_1;
            return cpc_yield__cps(k);
        }
    worker__resumed_1: {
            struct worker__frame_1 *cpc_f = CPC_POP(k, struct worker__frame_1);
            id = cpc_f->id;
            i = cpc_f->i;
        }
    }
    return k;
}

CT_DEFINE_SPAWN1(worker, int)

int main(void)
{
    for (int id = 0; id < 3; id++)
        worker__spawn(id);
    cpc_main_loop();
    CT_OUT("done\n");
    return 0;
}
