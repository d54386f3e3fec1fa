/* Cached time: attached cps code (k != NULL) sees the time of the current
   scheduler pass, native code (k == NULL) and detached code the real
   clock; the cache moves on between passes.  Also: a loop with nothing to
   run returns at once. */
#include "cps_test.h"
#include <sys/time.h>

static struct timeval first;

CPC_FRAMES_BEGIN
struct clock__frame { cpc_function *cpc_fn; };
CPC_FRAMES_END

static void busy_ms(int ms)
{
    double end = ct_now() + ms * 1e-3;
    while (ct_now() < end)
        ;
}

static long tv_us(const struct timeval *tv)
{
    return (long)tv->tv_sec * 1000000 + tv->tv_usec;
}

static cpc_continuation *clock__body(cpc_continuation *k, int cpc_resume);
static cpc_continuation *clock__resume_1(cpc_continuation *k) { return clock__body(k, 1); }
static cpc_continuation *clock__resume_2(cpc_continuation *k) { return clock__body(k, 2); }
static cpc_continuation *clock__resume_3(cpc_continuation *k) { return clock__body(k, 3); }
static cpc_continuation *clock__cps(cpc_continuation *k) { return clock__body(k, 0); }

#define CLOCK_CALL(n, call)                                                  \
    do {                                                                     \
        struct clock__frame *cpc_f = CPC_PUSH(k, struct clock__frame);       \
        cpc_f->cpc_fn = clock__resume_##n;                                   \
        return call;                                                         \
    } while (0)

static cpc_continuation *clock__body(cpc_continuation *k, int cpc_resume)
{
    struct timeval a, b, real;
    time_t t1, t2;
    switch (cpc_resume) {
    case 1: goto clock__resumed_1;
    case 2: goto clock__resumed_2;
    case 3: goto clock__resumed_3;
    }
    cpc_gettimeofday(k, &first);
    busy_ms(3);
    cpc_gettimeofday(k, &a);
    cpc_gettimeofday(NULL, &real);
    CT_OUT("same pass: cached time unchanged: %s\n",
           tv_us(&a) == tv_us(&first) ? "yes" : "no");
    CT_OUT("native call sees the real clock: %s\n",
           tv_us(&real) - tv_us(&a) >= 2500 ? "yes" : "no");
    t1 = cpc_time(k, &t2);
    CT_CHECK(t1 == t2 && t1 == a.tv_sec, "cpc_time %ld %ld", (long)t1, (long)t2);
    CLOCK_CALL(1, cpc_sleep__cps(k, 0, 20000, NULL));
clock__resumed_1:
    (void)CPC_POP(k, struct clock__frame);
    cpc_gettimeofday(k, &a);
    CT_OUT("after a 20 ms sleep: cached time moved on: %s\n",
           tv_us(&a) - tv_us(&first) >= 19000 ? "yes" : "no");
    CLOCK_CALL(2, cpc_link__cps(k, cpc_default_threadpool));
clock__resumed_2:
    (void)CPC_POP(k, struct clock__frame);
    cpc_gettimeofday(k, &a);
    busy_ms(3);
    cpc_gettimeofday(k, &b);
    CT_OUT("detached: real clock: %s\n",
           tv_us(&b) - tv_us(&a) >= 2500 ? "yes" : "no");
    CLOCK_CALL(3, cpc_link__cps(k, cpc_default_sched));
clock__resumed_3:
    (void)CPC_POP(k, struct clock__frame);
    return k;
}
CT_DEFINE_SPAWN0(clock)

int main(void)
{
    double t = ct_now();
    cpc_main_loop();
    CT_CHECK(ct_now() - t < 0.5, "an empty loop did not return at once");  /* 0.5 s: valgrind on a loaded machine */
    CT_OUT("empty loop returned\n");
    clock__spawn();
    cpc_main_loop();
    return 0;
}
