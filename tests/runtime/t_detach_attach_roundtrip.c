/* cpc_link round trips: threads move scheduler -> default pool -> another
   pool -> scheduler many times; cpc_link returns the previous scheduler
   and cpc_get_sched the current one; an attached thread keeps running
   meanwhile; cpc_yield is a no-op when detached.  Run under TSan too. */
#include "cps_test.h"

#define ROVERS 4
#define TRIPS 50

static cpc_sched *pool2;
static int detached_now;        /* attached code only */
static int rovers_done;
static long ticks, ticks_while_detached;

CPC_FRAMES_BEGIN
struct rover__frame { int id; int i; cpc_function *cpc_fn; };
struct ticker__frame_1 { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_sched *link_result(cpc_continuation *k, struct rover__frame *f)
{
    cpc_sched *prev;
    (void)k;
    CPC_RESULT(prev, f);
    return prev;
}

static cpc_continuation *rover__body(cpc_continuation *k, int cpc_resume,
                                     int id, int i);
static cpc_continuation *rover__resume_1(cpc_continuation *k) { return rover__body(k, 1, 0, 0); }
static cpc_continuation *rover__resume_2(cpc_continuation *k) { return rover__body(k, 2, 0, 0); }
static cpc_continuation *rover__resume_3(cpc_continuation *k) { return rover__body(k, 3, 0, 0); }
static cpc_continuation *rover__resume_4(cpc_continuation *k) { return rover__body(k, 4, 0, 0); }

#define ROVER_CALL(n, call)                                                  \
    do {                                                                     \
        struct rover__frame *cpc_f = CPC_PUSH(k, struct rover__frame);       \
        cpc_f->id = id;                                                      \
        cpc_f->i = i;                                                        \
        cpc_f->cpc_fn = rover__resume_##n;                                   \
        return call;                                                         \
    } while (0)
#define ROVER_RESUMED(n)                                                     \
    rover__resumed_##n:                                                      \
    cpc_f = CPC_POP(k, struct rover__frame);                                 \
    id = cpc_f->id;                                                          \
    i = cpc_f->i

/* cps void rover(int id) {
       for (i = 0; i < TRIPS; i++) {
           detached_now++;
           prev = cpc_link(cpc_default_threadpool);   // NULL
           cpc_yield();                                // no-op
           prev = cpc_link(pool2);                     // default pool
           prev = cpc_link(cpc_default_sched);         // pool2
           detached_now--;
       } } */
static cpc_continuation *rover__body(cpc_continuation *k, int cpc_resume,
                                     int id, int i)
{
    struct rover__frame *cpc_f;
    cpc_sched *prev;
    switch (cpc_resume) {
    case 1: goto rover__resumed_1;
    case 2: goto rover__resumed_2;
    case 3: goto rover__resumed_3;
    case 4: goto rover__resumed_4;
    }
    for (i = 0; i < TRIPS; i++) {
        CT_CHECK(cpc_get_sched(k) == cpc_default_sched, "not attached");
        detached_now++;
        ROVER_CALL(1, cpc_link__cps(k, cpc_default_threadpool));
        ROVER_RESUMED(1);
        prev = link_result(k, cpc_f);
        CT_CHECK(prev == cpc_default_sched, "link returned %p", (void *)prev);
        CT_CHECK(cpc_get_sched(k) == cpc_default_threadpool, "not in the pool");
        ROVER_CALL(2, cpc_yield__cps(k));
        ROVER_RESUMED(2);
        CT_CHECK(cpc_get_sched(k) == cpc_default_threadpool, "yield moved us");
        ROVER_CALL(3, cpc_link__cps(k, pool2));
        ROVER_RESUMED(3);
        prev = link_result(k, cpc_f);
        CT_CHECK(prev == cpc_default_threadpool, "link returned %p", (void *)prev);
        CT_CHECK(cpc_get_sched(k) == pool2, "not in pool2");
        ROVER_CALL(4, cpc_link__cps(k, cpc_default_sched));
        ROVER_RESUMED(4);
        prev = link_result(k, cpc_f);
        CT_CHECK(prev == pool2, "link returned %p", (void *)prev);
        CT_CHECK(cpc_get_sched(k) == cpc_default_sched, "not attached");
        detached_now--;
    }
    rovers_done++;
    return k;
}
static cpc_continuation *rover__cps(cpc_continuation *k, int id)
{
    return rover__body(k, 0, id, 0);
}
CT_DEFINE_SPAWN1(rover, int)

/* cps void ticker(void) { while (rovers_done < ROVERS) { ticks++; cpc_yield(); } } */
static cpc_continuation *ticker__cps(cpc_continuation *k);
static cpc_continuation *ticker__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct ticker__frame_1);
    return ticker__cps(k);
}
static cpc_continuation *ticker__cps(cpc_continuation *k)
{
    if (rovers_done == ROVERS)
        return k;
    ticks++;
    if (detached_now > 0)
        ticks_while_detached++;
    struct ticker__frame_1 *cpc_f = CPC_PUSH(k, struct ticker__frame_1);
    cpc_f->cpc_fn = ticker__resume_1;
    return cpc_yield__cps(k);
}
CT_DEFINE_SPAWN0(ticker)

int main(void)
{
    pool2 = cpc_threadpool_get(3);
    CT_CHECK_ERRNO(pool2 != NULL, "cpc_threadpool_get");
    for (int id = 0; id < ROVERS; id++)
        rover__spawn(id);
    ticker__spawn();
    cpc_main_loop();
    CT_CHECK(ticks_while_detached > 0, "the attached thread never ran while "
             "others were detached");
    CT_CHECK_ERRNO(cpc_threadpool_release(pool2) == 0, "release");
    CT_OUT("%d rovers x %d round trips done\n", rovers_done, TRIPS);
    return 0;
}
