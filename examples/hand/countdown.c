/*
 * countdown.c -- a CPC program translated by hand, in the exact shape
 * cpcc emits (docs/abi.md), to demo the runtime before the translator
 * exists.  The source it stands for:
 *
 *     cps void countdown(const char *name, int n, int ms) {
 *         while (n > 0) {
 *             printf("%s: %d\n", name, n);
 *             cpc_sleep(0, ms * 1000);
 *             n--;
 *         }
 *         printf("%s: liftoff!\n", name);
 *     }
 *
 *     int main(void) {
 *         cpc_spawn countdown("fast", 6, 100);
 *         cpc_spawn countdown("slow", 3, 250);
 *         cpc_main_loop();
 *         return 0;
 *     }
 *
 * Two cooperative threads sleep at different rates and interleave.
 * Build and run: make demo-hand.
 */
#include <cpc/cpc_runtime.h>
#include <stdio.h>

CPC_FRAMES_BEGIN
struct countdown__args { const char *name; int n; int ms; cpc_function *cpc_fn; };
struct countdown__frame_1 { const char *name; int n; int ms; cpc_function *cpc_fn; };
struct main__spawn_1 { const char *a0; int a1; int a2; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *countdown__body(cpc_continuation *k, int cpc_resume,
                                         const char *name, int n, int ms);

/* Resume point 1: after the call to cpc_sleep. */
static cpc_continuation *countdown__resume_1(cpc_continuation *k)
{
    return countdown__body(k, 1, NULL, 0, 0);
}

static cpc_continuation *countdown__bounce(cpc_continuation *k)
{
    struct countdown__args *cpc_a = CPC_POP(k, struct countdown__args);
    return countdown__body(k, 0, cpc_a->name, cpc_a->n, cpc_a->ms);
}

cpc_continuation *countdown__cps(cpc_continuation *k, const char *name, int n,
                                 int ms)
{
    if (__builtin_expect(--cpc_budget < 0, 0)) {
        struct countdown__args *cpc_a = CPC_PUSH(k, struct countdown__args);
        cpc_a->name = name;
        cpc_a->n = n;
        cpc_a->ms = ms;
        cpc_a->cpc_fn = countdown__bounce;
        return k;
    }
    return countdown__body(k, 0, name, n, ms);
}

static cpc_continuation *countdown__body(cpc_continuation *k, int cpc_resume,
                                         const char *name, int n, int ms)
{
    switch (cpc_resume) {
    case 1: goto countdown__resumed_1;
    }
    while (n > 0) {
        printf("%s: %d\n", name, n);
        fflush(stdout);
        {
            struct countdown__frame_1 *cpc_f =
                CPC_PUSH(k, struct countdown__frame_1);
            cpc_f->name = name;
            cpc_f->n = n;
            cpc_f->ms = ms;
            cpc_f->cpc_fn = countdown__resume_1;
            return cpc_sleep__cps(k, 0, ms * 1000, NULL);
        }
    countdown__resumed_1: {
            struct countdown__frame_1 *cpc_f =
                CPC_POP(k, struct countdown__frame_1);
            name = cpc_f->name;
            n = cpc_f->n;
            ms = cpc_f->ms;
        }
        n--;
    }
    printf("%s: liftoff!\n", name);
    return k;
}

/* Thread start of the spawns in main. */
static cpc_continuation *main__spawn_1__start(cpc_continuation *k)
{
    struct main__spawn_1 *cpc_a = CPC_POP(k, struct main__spawn_1);
    return countdown__cps(k, cpc_a->a0, cpc_a->a1, cpc_a->a2);
}

static void main__spawn_1(const char *a0, int a1, int a2)
{
    cpc_continuation *cpc_k = cpc_continuation_new(sizeof(struct main__spawn_1));
    struct main__spawn_1 *cpc_a = CPC_PUSH(cpc_k, struct main__spawn_1);
    cpc_a->a0 = a0;
    cpc_a->a1 = a1;
    cpc_a->a2 = a2;
    cpc_a->cpc_fn = main__spawn_1__start;
    cpc_spawn_continuation(cpc_k);
}

int main(void)
{
    main__spawn_1("fast", 6, 100);
    main__spawn_1("slow", 3, 250);
    cpc_main_loop();
    return 0;
}
