/* The program of docs/abi.md, translated exactly as shown there (the shape
   bin/cpcc emits: room reserved once at entry, the shared deferred path
   cpc_defer1 for count and a cold f__defer for report, one frame
   per invocation pushed unchecked at entry and dropped on the way out,
   unchecked returns), plus a thread that prints count's result (a
   non-tail call reading CPC_RESULT):

     cps void report(int n) { int t; t = count(n); printf(...); }
 */
#include "cps_test.h"

CPC_FRAMES_BEGIN
struct count__args    { int n; cpc_function *cpc_fn; };            /* a deferred entry */
struct count__frame   { int n; int total; cpc_function *cpc_fn; }; /* live across cpc_sleep */
union count__reserve  { struct count__frame f; int ret; };         /* room taken at entry */
struct main__spawn_1__start_args { int a0; cpc_function *cpc_fn; }; /* arguments of a spawn */
CPC_FRAMES_END

static cpc_continuation *count__body(cpc_continuation *cpc_k, int cpc_resume, int n);

/* Resume point 1: re-enter the body after the call to cpc_sleep. */
static cpc_continuation *count__resume_1(cpc_continuation *cpc_k)
{
    return count__body(cpc_k, 1, 0);
}

/* A deferred entry, run by the trampoline. */
static cpc_continuation *count__bounce(cpc_continuation *cpc_k)
{
    struct count__args *cpc_a = CPC_POP(cpc_k, struct count__args);
    return count__body(cpc_k, 0, cpc_a->n);
}

/* The entry could not run now (call budget spent, or not enough room):
   the runtime's shared deferred path reserves the room, pushes struct
   count__args as this describes it, and lets the trampoline call the
   bounce.  (report, below, has a defer of its own: the other way.) */
static const cpc_deferral count__deferral = { count__bounce, sizeof(union count__reserve),
    sizeof(struct count__args), 1, { __builtin_offsetof(struct count__args, n) },
    { sizeof(((struct count__args *)0)->n) } };

/* The C entry point of `cps int count(int)`. */
cpc_continuation *count__cps(cpc_continuation *cpc_k, int n)
{
    if (!cpc_enter(cpc_k, sizeof(union count__reserve)))
        return cpc_defer1(cpc_k, (cpc_word)(n), &count__deferral);
    return count__body(cpc_k, 0, n);
}

static cpc_continuation *count__body(cpc_continuation *cpc_k, int cpc_resume, int n)
{
    switch (cpc_resume) {
    case 1: goto count__resumed_1;
    }
    {   /* the frame of this invocation */
        struct count__frame *cpc_f = CPC_PUSH_RESERVED(cpc_k, struct count__frame);
        cpc_f->cpc_fn = count__resume_1;
    }
    int total = 0;
    while (n > 0) {
        {   /* cpc_sleep(0, 1000); */
            struct count__frame *cpc_f = CPC_TOP(cpc_k, struct count__frame);
            cpc_f->n = n;
            cpc_f->total = total;
            return cpc_sleep__cps(cpc_k, 0, 1000, NULL);
        }
    count__resumed_1: {
            struct count__frame *cpc_f = CPC_TOP(cpc_k, struct count__frame);
            n = cpc_f->n;
            total = cpc_f->total;
        }
        total += n;
        n--;
    }
    {
        int cpc_ret = total;
        CPC_DROP(cpc_k, struct count__frame);
        return cpc_return_reserved(cpc_k, &cpc_ret, sizeof cpc_ret);
    }
}

/* Thread start of the spawn in main. */
static cpc_continuation *main__spawn_1__start(cpc_continuation *cpc_k)
{
    struct main__spawn_1__start_args *cpc_a = CPC_POP_FIRST(cpc_k, struct main__spawn_1__start_args);
    return count__cps(cpc_k, cpc_a->a0);
}

/* ---- report: a non-tail call whose value is read back ------------------- */

CPC_FRAMES_BEGIN
struct report__args    { int n; cpc_function *cpc_fn; };
struct report__frame   { int n; cpc_function *cpc_fn; };
union report__reserve  { struct report__frame f; };
CPC_FRAMES_END

static cpc_continuation *report__body(cpc_continuation *cpc_k, int cpc_resume, int n);

static cpc_continuation *report__resume_1(cpc_continuation *cpc_k)
{
    return report__body(cpc_k, 1, 0);
}

static cpc_continuation *report__bounce(cpc_continuation *cpc_k)
{
    struct report__args *cpc_a = CPC_POP(cpc_k, struct report__args);
    return report__body(cpc_k, 0, cpc_a->n);
}

static CPC_COLD cpc_continuation *report__defer(cpc_continuation *cpc_k, int n)
{
    struct report__args *cpc_a;
    cpc_k = cpc_reserve(cpc_k, CPC_MAX(sizeof(struct report__args), sizeof(union report__reserve)));
    cpc_a = CPC_PUSH_RESERVED(cpc_k, struct report__args);
    cpc_a->n = n;
    cpc_a->cpc_fn = report__bounce;
    return cpc_k;
}

static cpc_continuation *report__cps(cpc_continuation *cpc_k, int n)
{
    if (!cpc_enter(cpc_k, sizeof(union report__reserve)))
        return report__defer(cpc_k, n);
    return report__body(cpc_k, 0, n);
}

static cpc_continuation *report__body(cpc_continuation *cpc_k, int cpc_resume, int n)
{
    switch (cpc_resume) {
    case 1: goto report__resumed_1;
    }
    {   /* the frame of this invocation: n is never assigned, so it is
           stored once here, with the lone resume function */
        struct report__frame *cpc_f = CPC_PUSH_RESERVED(cpc_k, struct report__frame);
        cpc_f->n = n;
        cpc_f->cpc_fn = report__resume_1;
    }
    int t;
    {   /* t = count(n); */
        int cpc_a1 = n;
        return count__cps(cpc_k, cpc_a1);
    }
report__resumed_1: {
        struct report__frame *cpc_f = CPC_TOP(cpc_k, struct report__frame);
        n = cpc_f->n;
        int cpc_r; CPC_RESULT(cpc_r, cpc_f); t = cpc_r;
    }
    CT_OUT("count(%d) = %d\n", n, t);
    CPC_DROP(cpc_k, struct report__frame);
    return cpc_k;
}

CT_DEFINE_SPAWN1(report, int)

int main(void)
{
    {
        cpc_continuation *cpc_sk = cpc_continuation_new(sizeof(struct main__spawn_1__start_args));
        struct main__spawn_1__start_args *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct main__spawn_1__start_args);
        cpc_a->a0 = 5;
        cpc_a->cpc_fn = main__spawn_1__start;
        cpc_spawn_continuation(cpc_sk);
    }
    report__spawn(5);
    report__spawn(100);
    cpc_main_loop();
    CT_OUT("main loop returned\n");
    return 0;
}
