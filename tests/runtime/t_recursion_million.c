/* cps recursion a million deep, non-tail (the continuation holds a million
   frames) and tail (no frame at all), with the C stack limited to 256 KiB
   by the test runner: the budget bounce through the trampoline keeps the C
   stack bounded at every optimisation level.  In the shape bin/cpcc emits
   (docs/abi.md): room reserved at entry, a cold f__defer. */
#include "cps_test.h"

#define DEPTH 1000000

/* cps int depth(int n) { if (n == 0) return 0; return depth(n - 1) + 1; } */
CPC_FRAMES_BEGIN
struct depth__args { int n; cpc_function *cpc_fn; };
struct depth__frame_1 { cpc_function *cpc_fn; };
union depth__reserve { struct depth__frame_1 f1; int ret; };
CPC_FRAMES_END
static cpc_continuation *depth__body(cpc_continuation *cpc_k, int cpc_resume, int n);
static cpc_continuation *depth__resume_1(cpc_continuation *cpc_k)
{
    return depth__body(cpc_k, 1, 0);
}
static cpc_continuation *depth__bounce(cpc_continuation *cpc_k)
{
    struct depth__args *cpc_a = CPC_POP(cpc_k, struct depth__args);
    return depth__body(cpc_k, 0, cpc_a->n);
}
static CPC_COLD cpc_continuation *depth__defer(cpc_continuation *cpc_k, int n)
{
    struct depth__args *cpc_a;
    cpc_k = cpc_reserve(cpc_k, CPC_MAX(sizeof(struct depth__args), sizeof(union depth__reserve)));
    cpc_a = CPC_PUSH_RESERVED(cpc_k, struct depth__args);
    cpc_a->n = n;
    cpc_a->cpc_fn = depth__bounce;
    return cpc_k;
}
static cpc_continuation *depth__cps(cpc_continuation *cpc_k, int n)
{
    if (!cpc_enter(cpc_k, sizeof(union depth__reserve)))
        return depth__defer(cpc_k, n);
    return depth__body(cpc_k, 0, n);
}
static cpc_continuation *depth__body(cpc_continuation *cpc_k, int cpc_resume, int n)
{
    switch (cpc_resume) {
    case 1: goto depth__resumed_1;
    }
    if (n == 0) {
        int cpc_ret = 0;
        return cpc_return_reserved(cpc_k, &cpc_ret, sizeof cpc_ret);
    }
    {
        int cpc_t1;
        {
            int cpc_a1 = n - 1;
            struct depth__frame_1 *cpc_f = CPC_PUSH_RESERVED(cpc_k, struct depth__frame_1);
            cpc_f->cpc_fn = depth__resume_1;
            return depth__cps(cpc_k, cpc_a1);
        }
    depth__resumed_1: {
            struct depth__frame_1 *cpc_f = CPC_POP(cpc_k, struct depth__frame_1);
            CPC_RESULT(cpc_t1, cpc_f);
        }
        {
            int cpc_ret = cpc_t1 + 1;
            return cpc_return_reserved(cpc_k, &cpc_ret, sizeof cpc_ret);
        }
    }
}

/* cps int countdown(int n) { if (n == 0) return 42; return countdown(n - 1); } */
CPC_FRAMES_BEGIN
struct countdown__args { int n; cpc_function *cpc_fn; };
union countdown__reserve { int ret; };
CPC_FRAMES_END
static cpc_continuation *countdown__cps(cpc_continuation *cpc_k, int n);
static cpc_continuation *countdown__bounce(cpc_continuation *cpc_k)
{
    struct countdown__args *cpc_a = CPC_POP(cpc_k, struct countdown__args);
    return countdown__cps(cpc_k, cpc_a->n);
}
static CPC_COLD cpc_continuation *countdown__defer(cpc_continuation *cpc_k, int n)
{
    struct countdown__args *cpc_a;
    cpc_k = cpc_reserve(cpc_k, CPC_MAX(sizeof(struct countdown__args), sizeof(union countdown__reserve)));
    cpc_a = CPC_PUSH_RESERVED(cpc_k, struct countdown__args);
    cpc_a->n = n;
    cpc_a->cpc_fn = countdown__bounce;
    return cpc_k;
}
static cpc_continuation *countdown__cps(cpc_continuation *cpc_k, int n)
{
    if (!cpc_enter(cpc_k, sizeof(union countdown__reserve)))
        return countdown__defer(cpc_k, n);
    if (n == 0) {
        int cpc_ret = 42;
        return cpc_return_reserved(cpc_k, &cpc_ret, sizeof cpc_ret);
    }
    return countdown__cps(cpc_k, n - 1);
}

/* cps void main_thread(void)
   { printf(depth(DEPTH)); printf(countdown(DEPTH)); } */
CPC_FRAMES_BEGIN
struct main_thread__args { cpc_function *cpc_fn; };
struct main_thread__frame_1 { cpc_function *cpc_fn; };
struct main_thread__frame_2 { cpc_function *cpc_fn; };
union main_thread__reserve { struct main_thread__frame_1 f1; struct main_thread__frame_2 f2; };
CPC_FRAMES_END
static cpc_continuation *main_thread__body(cpc_continuation *cpc_k, int cpc_resume);
static cpc_continuation *main_thread__resume_1(cpc_continuation *cpc_k)
{
    return main_thread__body(cpc_k, 1);
}
static cpc_continuation *main_thread__resume_2(cpc_continuation *cpc_k)
{
    return main_thread__body(cpc_k, 2);
}
static cpc_continuation *main_thread__bounce(cpc_continuation *cpc_k)
{
    (void)CPC_POP(cpc_k, struct main_thread__args);
    return main_thread__body(cpc_k, 0);
}
static CPC_COLD cpc_continuation *main_thread__defer(cpc_continuation *cpc_k)
{
    struct main_thread__args *cpc_a;
    cpc_k = cpc_reserve(cpc_k, CPC_MAX(sizeof(struct main_thread__args), sizeof(union main_thread__reserve)));
    cpc_a = CPC_PUSH_RESERVED(cpc_k, struct main_thread__args);
    cpc_a->cpc_fn = main_thread__bounce;
    return cpc_k;
}
static cpc_continuation *main_thread__cps(cpc_continuation *cpc_k)
{
    if (!cpc_enter(cpc_k, sizeof(union main_thread__reserve)))
        return main_thread__defer(cpc_k);
    return main_thread__body(cpc_k, 0);
}
static cpc_continuation *main_thread__body(cpc_continuation *cpc_k, int cpc_resume)
{
    switch (cpc_resume) {
    case 1: goto main_thread__resumed_1;
    case 2: goto main_thread__resumed_2;
    }
    {
        int cpc_t1;
        {
            int cpc_a1 = DEPTH;
            struct main_thread__frame_1 *cpc_f = CPC_PUSH_RESERVED(cpc_k, struct main_thread__frame_1);
            cpc_f->cpc_fn = main_thread__resume_1;
            return depth__cps(cpc_k, cpc_a1);
        }
    main_thread__resumed_1: {
            struct main_thread__frame_1 *cpc_f = CPC_POP(cpc_k, struct main_thread__frame_1);
            CPC_RESULT(cpc_t1, cpc_f);
        }
        CT_OUT("depth(%d) = %d\n", DEPTH, cpc_t1);
    }
    {
        int cpc_t2;
        {
            int cpc_a1 = DEPTH;
            struct main_thread__frame_2 *cpc_f = CPC_PUSH_RESERVED(cpc_k, struct main_thread__frame_2);
            cpc_f->cpc_fn = main_thread__resume_2;
            return countdown__cps(cpc_k, cpc_a1);
        }
    main_thread__resumed_2: {
            struct main_thread__frame_2 *cpc_f = CPC_POP(cpc_k, struct main_thread__frame_2);
            CPC_RESULT(cpc_t2, cpc_f);
        }
        CT_OUT("countdown(%d) = %d\n", DEPTH, cpc_t2);
    }
    return cpc_k;
}
CT_DEFINE_SPAWN0(main_thread)

int main(void)
{
    main_thread__spawn();
    cpc_main_loop();
    return 0;
}
