/* The program of docs/abi.md, translated exactly as shown there, plus a
   thread that prints count's result (a non-tail call reading CPC_RESULT). */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct count__args    { int n; cpc_function *cpc_fn; };
struct count__frame_1 { int n; int total; cpc_function *cpc_fn; };
struct report__frame_1 { int n; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *count__body(cpc_continuation *k, int cpc_resume, int n);

static cpc_continuation *count__resume_1(cpc_continuation *k)
{
    return count__body(k, 1, 0);
}

static cpc_continuation *count__bounce(cpc_continuation *k)
{
    struct count__args *cpc_a = CPC_POP(k, struct count__args);
    return count__body(k, 0, cpc_a->n);
}

cpc_continuation *count__cps(cpc_continuation *k, int n)
{
    if (__builtin_expect(--cpc_budget < 0, 0)) {
        struct count__args *cpc_a = CPC_PUSH(k, struct count__args);
        cpc_a->n = n;
        cpc_a->cpc_fn = count__bounce;
        return k;
    }
    return count__body(k, 0, n);
}

static cpc_continuation *count__body(cpc_continuation *k, int cpc_resume, int n)
{
    switch (cpc_resume) {
    case 1: goto count__resumed_1;
    }
    int total = 0;
    while (n > 0) {
        {
            struct count__frame_1 *cpc_f = CPC_PUSH(k, struct count__frame_1);
            cpc_f->n = n;
            cpc_f->total = total;
            cpc_f->cpc_fn = count__resume_1;
            return cpc_sleep__cps(k, 0, 1000, NULL);
        }
    count__resumed_1: {
            struct count__frame_1 *cpc_f = CPC_POP(k, struct count__frame_1);
            n = cpc_f->n;
            total = cpc_f->total;
        }
        total += n;
        n--;
    }
    {
        int cpc_ret = total;
        return cpc_return(k, &cpc_ret, sizeof cpc_ret);
    }
}

/* cps void report(int n) { int t = count(n); printf(...); } */
static cpc_continuation *report__resume_1(cpc_continuation *k)
{
    struct report__frame_1 *cpc_f = CPC_POP(k, struct report__frame_1);
    int t;
    CPC_RESULT(t, cpc_f);
    CT_OUT("count(%d) = %d\n", cpc_f->n, t);
    return k;
}

static cpc_continuation *report__cps(cpc_continuation *k, int n)
{
    struct report__frame_1 *cpc_f = CPC_PUSH(k, struct report__frame_1);
    cpc_f->n = n;
    cpc_f->cpc_fn = report__resume_1;
    return count__cps(k, n);
}

CPC_FRAMES_BEGIN
struct main__spawn_1  { int a0; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *main__spawn_1__start(cpc_continuation *k)
{
    struct main__spawn_1 *cpc_a = CPC_POP(k, struct main__spawn_1);
    return count__cps(k, cpc_a->a0);
}

CT_DEFINE_SPAWN1(report, int)

int main(void)
{
    {
        cpc_continuation *cpc_k = cpc_continuation_new(sizeof(struct main__spawn_1));
        struct main__spawn_1 *cpc_a = CPC_PUSH(cpc_k, struct main__spawn_1);
        cpc_a->a0 = 5;
        cpc_a->cpc_fn = main__spawn_1__start;
        cpc_spawn_continuation(cpc_k);
    }
    report__spawn(5);
    report__spawn(100);
    cpc_main_loop();
    CT_OUT("main loop returned\n");
    return 0;
}
