/* Debug runtime: an untimed wait through the entry without the room test
   (cpc_wait_reserved__cps) from a function whose entry did not reserve the
   wait's record -- its frame fills the continuation to the last byte -- is
   caught before the record is written, and the message names the thread's
   top frame. */
#include "cps_test.h"

static cpc_condvar *cv;

CPC_FRAMES_BEGIN
struct filler__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *filler__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct filler__frame_1);
    return k;
}

/* A buggy entry: its frame, over bytes that fill the room below it, leaves
   no room for the record. */
static cpc_continuation *filler__cps(cpc_continuation *k)
{
    k = cpc_reserve(k, sizeof(struct filler__frame_1));
    k->length = k->size - sizeof(struct filler__frame_1);
    struct filler__frame_1 *cpc_f = CPC_PUSH_RESERVED(k, struct filler__frame_1);
    cpc_f->cpc_fn = filler__resume_1;
    CT_CHECK(k->size == k->length, "room %u above the frame", k->size - k->length);
    return cpc_wait_reserved__cps(k, cv, -1, 0);
}
CT_DEFINE_SPAWN0(filler)

int main(void)
{
    cv = cpc_condvar_get();
    CT_CHECK_ERRNO(cv != NULL, "cpc_condvar_get");
    filler__spawn();
    cpc_main_loop();
    CT_OUT("not caught\n");
    return 0;
}
