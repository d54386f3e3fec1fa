/* Detached mode: a thread in a pool makes a blocking read() while attached
   threads keep running; in a pool cpc_io_wait and cpc_sleep block like
   poll and nanosleep; pools run at most max_threads at once; releasing a
   pool that holds threads fails with EBUSY, and succeeds once empty. */
#include "cps_test.h"

static cpc_sched *pool;
static int p[2];
static int attached_steps;
static double t0;

CPC_FRAMES_BEGIN
struct blocker__frame { cpc_function *cpc_fn; };
struct writer__frame { cpc_function *cpc_fn; };
struct napper__frame { int id; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *blocker__body(cpc_continuation *k, int cpc_resume);
static cpc_continuation *blocker__resume_1(cpc_continuation *k) { return blocker__body(k, 1); }
static cpc_continuation *blocker__resume_2(cpc_continuation *k) { return blocker__body(k, 2); }
static cpc_continuation *blocker__resume_3(cpc_continuation *k) { return blocker__body(k, 3); }
static cpc_continuation *blocker__resume_4(cpc_continuation *k) { return blocker__body(k, 4); }
static cpc_continuation *blocker__cps(cpc_continuation *k) { return blocker__body(k, 0); }

#define BLOCKER_CALL(n, call)                                                \
    do {                                                                     \
        struct blocker__frame *cpc_f = CPC_PUSH(k, struct blocker__frame);   \
        cpc_f->cpc_fn = blocker__resume_##n;                                 \
        return call;                                                         \
    } while (0)

/* cps void blocker(void) {
       cpc_link(pool);
       read(p[0], &c, 1);                          // blocks the worker
       r1 = cpc_io_wait(p[0], CPC_IO_IN);          // poll()
       read(p[0], &c, 1);
       r2 = cpc_sleep(0, 20000);                   // nanosleep()
       cpc_link(cpc_default_sched);
       printf(...); } */
static cpc_continuation *blocker__body(cpc_continuation *k, int cpc_resume)
{
    static int r1, r2, e2;     /* e2: errno after the sleep */
    static int steps_before;
    char c;
    struct blocker__frame *cpc_f;
    switch (cpc_resume) {
    case 1: goto blocker__resumed_1;
    case 2: goto blocker__resumed_2;
    case 3: goto blocker__resumed_3;
    case 4: goto blocker__resumed_4;
    }
    steps_before = attached_steps;
    BLOCKER_CALL(1, cpc_link__cps(k, pool));
blocker__resumed_1:
    (void)CPC_POP(k, struct blocker__frame);
    CT_CHECK(read(p[0], &c, 1) == 1 && c == 'a', "blocking read");
    BLOCKER_CALL(2, cpc_io_wait__cps(k, p[0], CPC_IO_IN, NULL));
blocker__resumed_2:
    cpc_f = CPC_POP(k, struct blocker__frame);
    CPC_RESULT(r1, cpc_f);
    CT_CHECK_ERRNO(r1 >= 0, "cpc_io_wait");
    CT_CHECK(r1 > 0 && (r1 & CPC_IO_IN), "io_wait: %d", r1);
    CT_CHECK(read(p[0], &c, 1) == 1 && c == 'b', "read after io_wait");
    BLOCKER_CALL(3, cpc_sleep__cps(k, 0, 20000, NULL));
blocker__resumed_3:
    cpc_f = CPC_POP(k, struct blocker__frame);
    CPC_RESULT(r2, cpc_f);
    e2 = errno;
    BLOCKER_CALL(4, cpc_link__cps(k, cpc_default_sched));
blocker__resumed_4:
    (void)CPC_POP(k, struct blocker__frame);
    CT_OUT("blocker: read a, io_wait %s, read b, sleep %s\n",
           ct_result_name(r1, 0), ct_result_name(r2, e2));
    CT_CHECK(attached_steps > steps_before,
             "no attached thread ran while the pool blocked");
    return k;
}
CT_DEFINE_SPAWN0(blocker)

static cpc_continuation *writer__body(cpc_continuation *k, int cpc_resume);
static cpc_continuation *writer__resume_1(cpc_continuation *k) { return writer__body(k, 1); }
static cpc_continuation *writer__resume_2(cpc_continuation *k) { return writer__body(k, 2); }
static cpc_continuation *writer__cps(cpc_continuation *k) { return writer__body(k, 0); }

/* cps void writer(void) {
       cpc_sleep(0, 20000); attached_steps++;
       release pool -> -1 EBUSY; write 'a';
       cpc_sleep(0, 20000); attached_steps++; write 'b'; } */
static cpc_continuation *writer__body(cpc_continuation *k, int cpc_resume)
{
    struct writer__frame *cpc_f;
    switch (cpc_resume) {
    case 1: goto writer__resumed_1;
    case 2: goto writer__resumed_2;
    }
    cpc_f = CPC_PUSH(k, struct writer__frame);
    cpc_f->cpc_fn = writer__resume_1;
    return cpc_sleep__cps(k, 0, 20000, NULL);
writer__resumed_1:
    (void)CPC_POP(k, struct writer__frame);
    attached_steps++;
    errno = 0;
    int rc = cpc_threadpool_release(pool);
    CT_OUT("writer: release while busy: %d %s\n", rc,
           errno == EBUSY ? "EBUSY" : strerror(errno));
    CT_CHECK(write(p[1], "a", 1) == 1, "write");
    cpc_f = CPC_PUSH(k, struct writer__frame);
    cpc_f->cpc_fn = writer__resume_2;
    return cpc_sleep__cps(k, 0, 20000, NULL);
writer__resumed_2:
    (void)CPC_POP(k, struct writer__frame);
    attached_steps++;
    CT_CHECK(write(p[1], "b", 1) == 1, "write");
    return k;
}
CT_DEFINE_SPAWN0(writer)

/* cps void napper(int id) { cpc_link(pool); cpc_sleep(0, 50000); } --
   the thread ends while detached. */
static cpc_continuation *napper__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct napper__frame);
    return cpc_sleep__cps(k, 0, 50000, NULL);
}
static cpc_continuation *napper__cps(cpc_continuation *k, int id)
{
    struct napper__frame *cpc_f = CPC_PUSH(k, struct napper__frame);
    cpc_f->id = id;
    cpc_f->cpc_fn = napper__resume_1;
    return cpc_link__cps(k, pool);
}
CT_DEFINE_SPAWN1(napper, int)

int main(void)
{
    CT_CHECK_ERRNO(pipe(p) == 0, "pipe");
    pool = cpc_threadpool_get(2);
    CT_CHECK_ERRNO(pool != NULL, "cpc_threadpool_get");
    blocker__spawn();
    writer__spawn();
    cpc_main_loop();
    CT_OUT("release after: %d\n", cpc_threadpool_release(pool));

    /* Four 50 ms naps in a pool of two threads take two rounds. */
    pool = cpc_threadpool_get(2);
    CT_CHECK_ERRNO(pool != NULL, "cpc_threadpool_get");
    t0 = ct_now();
    for (int i = 0; i < 4; i++)
        napper__spawn(i);
    cpc_main_loop();
    double elapsed = ct_now() - t0;
    CT_CHECK(elapsed >= 0.095, "4 naps of 50 ms on 2 threads took %.3fs",
             elapsed);
    CT_OUT("naps ended detached; release: %d\n", cpc_threadpool_release(pool));
    close(p[0]);
    close(p[1]);
    return 0;
}
