/* A yield loop does not starve I/O or timers: a descriptor that becomes
   ready and a sleeper whose time is up are taken within 64 switches
   (docs/abi.md, "The run queue"), so the thread they wake runs after at
   most 64 switches plus one turn of the threads runnable then.  Counted
   in switches, not timed: NYIELD threads yield in a loop and count every
   yield; the reader of a pipe written by one of them, and a sleeper, check
   how many yields passed since their event.  A loop that took timers and
   fds only between passes over the whole run queue waited about two
   turns (2 * NYIELD). */
#include "cps_test.h"

#include <unistd.h>

#ifndef NYIELD
#define NYIELD 1000
#endif
#define BOUND (64 + NYIELD + 2)

static int fds[2];
static long switches;                 /* yields so far */
static long written_at = -1;          /* yields when the pipe was written */
static long expired_at = -1;          /* first yield after the sleep's end */
static double sleep_end;              /* ct_now() the sleeper is due at */
static int served;                    /* reader and sleeper done */

CPC_FRAMES_BEGIN
struct yielder__frame { int id; long n; cpc_function *cpc_fn; };
struct reader__frame { cpc_function *cpc_fn; };
struct sleeper__frame { cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void yielder(int id) { while (served < 2) { count; cpc_yield(); } } */
static cpc_continuation *yielder__cps(cpc_continuation *k, int id, long n);
static cpc_continuation *yielder__resume(cpc_continuation *k)
{
    struct yielder__frame *f = CPC_POP(k, struct yielder__frame);
    return yielder__cps(k, f->id, f->n);
}
static cpc_continuation *yielder__cps(cpc_continuation *k, int id, long n)
{
    if (served == 2)
        return k;
    if (id == 0 && n == 10) {
        CT_CHECK(write(fds[1], "x", 1) == 1, "write");
        written_at = switches;
    }
    if (expired_at < 0 && sleep_end > 0 && ct_now() >= sleep_end)
        expired_at = switches;
    switches++;
    struct yielder__frame *f = CPC_PUSH(k, struct yielder__frame);
    f->id = id;
    f->n = n + 1;
    f->cpc_fn = yielder__resume;
    return cpc_yield__cps(k);
}
CT_DEFINE_SPAWN2(yielder, int, long)

/* cps void reader(void) { cpc_io_wait(fds[0], CPC_IO_IN); check; } */
static cpc_continuation *reader__resume(cpc_continuation *k)
{
    struct reader__frame *f = CPC_POP(k, struct reader__frame);
    int r;
    CPC_RESULT(r, f);
    CT_CHECK(r > 0 && (r & CPC_IO_IN), "io_wait: %d", r);
    CT_CHECK(written_at >= 0, "woken before the write");
    long waited = switches - written_at;
    CT_CHECK(waited <= BOUND, "the reader ran %ld switches after the write "
             "(bound %d)", waited, BOUND);
    CT_OUT("reader: within the bound\n");
    served++;
    return k;
}
static cpc_continuation *reader__cps(cpc_continuation *k)
{
    struct reader__frame *f = CPC_PUSH(k, struct reader__frame);
    f->cpc_fn = reader__resume;
    return cpc_io_wait__cps(k, fds[0], CPC_IO_IN, NULL);
}
CT_DEFINE_SPAWN0(reader)

/* cps void sleeper(void) { cpc_sleep(0, 2000); check; } */
static cpc_continuation *sleeper__resume(cpc_continuation *k)
{
    (void)CPC_POP(k, struct sleeper__frame);
    CT_CHECK(ct_now() >= sleep_end - 1e-3, "woke early");
    /* expired_at < 0: no yield saw the time up before the sleeper ran. */
    long waited = expired_at < 0 ? 0 : switches - expired_at;
    CT_CHECK(waited <= BOUND, "the sleeper ran %ld switches after its time "
             "(bound %d)", waited, BOUND);
    CT_OUT("sleeper: within the bound\n");
    served++;
    return k;
}
static cpc_continuation *sleeper__cps(cpc_continuation *k)
{
    struct sleeper__frame *f = CPC_PUSH(k, struct sleeper__frame);
    f->cpc_fn = sleeper__resume;
    cpc_continuation *r = cpc_sleep__cps(k, 0, 2000, NULL);
    /* After the runtime read its clock: no earlier than its deadline. */
    sleep_end = ct_now() + 2e-3;
    return r;
}
CT_DEFINE_SPAWN0(sleeper)

int main(void)
{
    CT_CHECK_ERRNO(pipe(fds) == 0, "pipe");
    reader__spawn();
    sleeper__spawn();
    for (int i = 0; i < NYIELD; i++)
        yielder__spawn(i, 0);
    cpc_main_loop();
    CT_CHECK(served == 2, "%d of 2 served", served);
    CT_OUT("%s\n", switches > 2L * NYIELD ? "yield loop ran" : "too few switches");
    close(fds[0]);
    close(fds[1]);
    return 0;
}
