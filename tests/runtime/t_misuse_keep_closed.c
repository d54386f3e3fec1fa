/* A kept fd (cpc_io_keep) closed without cpc_io_forget, its number reused
   by a new pipe, then waited on: the opt runtime cannot see it (the wait
   would never be woken); the debug runtime aborts, naming the fd. */
#include "cps_test.h"

static int p[2];

CPC_FRAMES_BEGIN
struct reader__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

/* ... close(p[0]); close(p[1]); pipe(p); cpc_io_wait(p[0], CPC_IO_IN); */
static cpc_continuation *reader__resume_1(cpc_continuation *k)
{
    int old = p[0];
    char c;
    (void)CPC_POP(k, struct reader__frame_1);
    CT_CHECK(read(p[0], &c, 1) == 1, "read");
    close(p[0]);
    close(p[1]);
    CT_CHECK(pipe(p) == 0 && p[0] == old, "fd number not reused");
    CT_CHECK(write(p[1], "y", 1) == 1, "write");
    return cpc_io_wait__cps(k, p[0], CPC_IO_IN, NULL);
}
/* cps void reader(void) {
       cpc_io_keep(p[0]); write(p[1], "x", 1); cpc_io_wait(p[0], CPC_IO_IN);
       ... } */
static cpc_continuation *reader__cps(cpc_continuation *k)
{
    struct reader__frame_1 *cpc_f = CPC_PUSH(k, struct reader__frame_1);
    cpc_f->cpc_fn = reader__resume_1;
    CT_CHECK_ERRNO(cpc_io_keep(p[0]) == 0, "cpc_io_keep");
    CT_CHECK(write(p[1], "x", 1) == 1, "write");
    return cpc_io_wait__cps(k, p[0], CPC_IO_IN, NULL);
}
CT_DEFINE_SPAWN0(reader)

int main(void)
{
    CT_CHECK_ERRNO(pipe(p) == 0, "pipe");
    reader__spawn();
    cpc_main_loop();
    CT_OUT("not caught\n");
    return 0;
}
