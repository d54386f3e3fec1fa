/* cpc_yield puts the thread at the back of the run queue: three threads
   yielding in a loop interleave round-robin, in spawn order. */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct worker__frame_1 { int id; int i; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *worker__body(cpc_continuation *k, int cpc_resume,
                                      int id);

static cpc_continuation *worker__resume_1(cpc_continuation *k)
{
    return worker__body(k, 1, 0);
}

/* cps void worker(int id)
   { for (int i = 0; i < 4; i++) { printf(...); cpc_yield(); } } */
static cpc_continuation *worker__cps(cpc_continuation *k, int id)
{
    --cpc_budget;           /* entered only from the spawn thunk */
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
            struct worker__frame_1 *cpc_f = CPC_PUSH(k, struct worker__frame_1);
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
