/* Running out of memory for a continuation exits with a message saying
   so (the address space is limited to 256 MiB, then a thread grows its
   continuation past it). */
#include "cps_test.h"
#include <sys/resource.h>

CPC_FRAMES_BEGIN
struct big__frame { char data[1 << 20]; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *big__resume(cpc_continuation *k)
{
    (void)CPC_POP(k, struct big__frame);
    return k;
}

/* cps void hog(void) { pushes 1 MiB frames until memory runs out } */
static cpc_continuation *hog__cps(cpc_continuation *k)
{
    for (;;) {
        struct big__frame *cpc_f = CPC_PUSH(k, struct big__frame);
        cpc_f->cpc_fn = big__resume;
    }
    return k;
}
CT_DEFINE_SPAWN0(hog)

int main(void)
{
    struct rlimit rl = { 256 << 20, 256 << 20 };
    CT_CHECK_ERRNO(setrlimit(RLIMIT_AS, &rl) == 0, "setrlimit");
    hog__spawn();
    cpc_main_loop();
    CT_OUT("not caught\n");
    return 0;
}
