/* cps recursion a million deep, non-tail (the continuation holds a million
   frames) and tail (no frame at all), with the C stack limited to 256 KiB
   by the test runner: the budget bounce through the trampoline keeps the C
   stack bounded at every optimisation level. */
#include "cps_test.h"

#define DEPTH 1000000

CPC_FRAMES_BEGIN
struct depth__args { int n; cpc_function *cpc_fn; };
struct depth__frame_1 { cpc_function *cpc_fn; };
struct countdown__args { int n; cpc_function *cpc_fn; };
struct main_thread__frame_1 { cpc_function *cpc_fn; };
struct main_thread__frame_2 { cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps int depth(int n) { if (n == 0) return 0; return depth(n - 1) + 1; } */
static cpc_continuation *depth__body(cpc_continuation *k, int n);
static cpc_continuation *depth__bounce(cpc_continuation *k)
{
    struct depth__args *cpc_a = CPC_POP(k, struct depth__args);
    return depth__body(k, cpc_a->n);
}
static cpc_continuation *depth__cps(cpc_continuation *k, int n)
{
    if (__builtin_expect(--cpc_budget < 0, 0)) {
        struct depth__args *cpc_a = CPC_PUSH(k, struct depth__args);
        cpc_a->n = n;
        cpc_a->cpc_fn = depth__bounce;
        return k;
    }
    return depth__body(k, n);
}
static cpc_continuation *depth__resume_1(cpc_continuation *k)
{
    struct depth__frame_1 *cpc_f = CPC_POP(k, struct depth__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    {
        int cpc_ret = r + 1;
        return cpc_return(k, &cpc_ret, sizeof cpc_ret);
    }
}
static cpc_continuation *depth__body(cpc_continuation *k, int n)
{
    if (n == 0) {
        int cpc_ret = 0;
        return cpc_return(k, &cpc_ret, sizeof cpc_ret);
    }
    struct depth__frame_1 *cpc_f = CPC_PUSH(k, struct depth__frame_1);
    cpc_f->cpc_fn = depth__resume_1;
    return depth__cps(k, n - 1);
}

/* cps int countdown(int n) { if (n == 0) return 42; return countdown(n - 1); } */
static cpc_continuation *countdown__cps(cpc_continuation *k, int n);
static cpc_continuation *countdown__bounce(cpc_continuation *k)
{
    struct countdown__args *cpc_a = CPC_POP(k, struct countdown__args);
    return countdown__cps(k, cpc_a->n);
}
static cpc_continuation *countdown__cps(cpc_continuation *k, int n)
{
    if (__builtin_expect(--cpc_budget < 0, 0)) {
        struct countdown__args *cpc_a = CPC_PUSH(k, struct countdown__args);
        cpc_a->n = n;
        cpc_a->cpc_fn = countdown__bounce;
        return k;
    }
    if (n == 0) {
        int cpc_ret = 42;
        return cpc_return(k, &cpc_ret, sizeof cpc_ret);
    }
    return countdown__cps(k, n - 1);
}

/* cps void main_thread(void)
   { printf(depth(DEPTH)); printf(countdown(DEPTH)); } */
static cpc_continuation *main_thread__resume_2(cpc_continuation *k)
{
    struct main_thread__frame_2 *cpc_f = CPC_POP(k, struct main_thread__frame_2);
    int r;
    CPC_RESULT(r, cpc_f);
    CT_OUT("countdown(%d) = %d\n", DEPTH, r);
    return k;
}
static cpc_continuation *main_thread__resume_1(cpc_continuation *k)
{
    struct main_thread__frame_1 *cpc_f = CPC_POP(k, struct main_thread__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    CT_OUT("depth(%d) = %d\n", DEPTH, r);
    struct main_thread__frame_2 *cpc_g = CPC_PUSH(k, struct main_thread__frame_2);
    cpc_g->cpc_fn = main_thread__resume_2;
    return countdown__cps(k, DEPTH);
}
static cpc_continuation *main_thread__cps(cpc_continuation *k)
{
    struct main_thread__frame_1 *cpc_f = CPC_PUSH(k, struct main_thread__frame_1);
    cpc_f->cpc_fn = main_thread__resume_1;
    return depth__cps(k, DEPTH);
}
CT_DEFINE_SPAWN0(main_thread)

int main(void)
{
    main_thread__spawn();
    cpc_main_loop();
    return 0;
}
