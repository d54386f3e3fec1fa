/*
 * cpc.c -- the CPC side of the runtime micro-benchmarks.
 *
 * Each benchmark is written first as the CPC source it stands for (in the
 * comment above it), then by hand in exactly the shape `cpcc -O2` emits for
 * that source (docs/abi.md; cpc_src.cpc is the same source through cpcc):
 * frame structs between CPC_FRAMES_BEGIN/END; a C entry point f__cps that
 * reserves room once (cpc_enter, or cpc_enter_leaf for a function that
 * makes no cps call) and otherwise defers the call through the runtime's
 * cpc_deferN with the function's cpc_deferral table and cold f__bounce;
 * a body with a resume switch that pushes one frame per invocation
 * (CPC_PUSH_RESERVED) and keeps the function's variables in it, read and
 * written in place (the frame-resident data flow of -O1 and above), finds
 * the frame again after each cps call (CPC_TOP), drops it on the way out
 * (CPC_DROP) and returns to its caller (cpc_resume_caller); resume stubs
 * that pass the body its parameters from the frame; spawn thunks.  Linked
 * against build/runtime/libcpc.a.
 */
#include <cpc/cpc_runtime.h>
#include "bench_common.h"

/* The system name printed: "cpc", or "cpc_nocache" for the build linked
   against libcpc_nocache.a (the runtime without its continuation cache). */
/* The loop that runs the threads: CPC's own (cpc_main_loop), or the
   default scheduler inside a libev or libuv loop (-DBENCH_LOOP_EV,
   -DBENCH_LOOP_UV: bench-cpc_ev, bench-cpc_uv). */
#if defined(BENCH_LOOP_EV)
#include <cpc/cpc_ev.h>
#define BENCH_SYS "cpc_ev"
static void bench_loop(void)
{
    struct ev_loop *loop = EV_DEFAULT;
    cpc_ev *a = cpc_ev_start(loop, cpc_scheduler_default());
    ev_run(loop, 0);
    cpc_ev_stop(a);
}
#elif defined(BENCH_LOOP_UV)
#include <cpc/cpc_uv.h>
#define BENCH_SYS "cpc_uv"
static void bench_loop(void)
{
    uv_loop_t *loop = uv_default_loop();
    cpc_uv *a = cpc_uv_start(loop, cpc_scheduler_default());
    uv_run(loop, UV_RUN_DEFAULT);
    cpc_uv_stop(a);
    uv_run(loop, UV_RUN_DEFAULT);      /* closes the adapter's handles */
}
#else
#define bench_loop cpc_main_loop
#endif

#ifndef BENCH_SYS
#define BENCH_SYS "cpc"
#endif

/* As at the top of every file cpcc generates (docs/translator.md): cps
   functions are compiled without gcc's SLP vectoriser, and at -O0 without
   stack slot sharing. */
#ifndef CPC_CPS_FN
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#define CPC_CPS_FN __attribute__((optimize("no-tree-slp-vectorize")))
#elif defined(__GNUC__) && !defined(__clang__)
#define CPC_CPS_FN __attribute__((optimize("stack-reuse=none")))
#else
#define CPC_CPS_FN
#endif
#endif

static double t0, t1;
static long warm;

/* Native helpers called from cps code. */
static void mark_start(void) { t0 = bench_now_ns(); }
static void mark_end(void) { t1 = bench_now_ns(); }

/* ========================================================================
 * switch: yield ping-pong between two threads.
 *
 *   cps void yielder(int id, long n) {
 *       long i;
 *       for (i = 0; i < n; i++) {
 *           if (i == warm && id == 0) mark_start();
 *           cpc_yield();
 *       }
 *       if (id == 1) mark_end();
 *   }
 *   ...  cpc_spawn yielder(0, n); cpc_spawn yielder(1, n); cpc_main_loop();
 * ===================================================================== */

CPC_FRAMES_BEGIN
struct yielder__args    { int id; long n; cpc_function *cpc_fn; };
struct yielder__frame   { int id; long n; long i; cpc_function *cpc_fn; };
union yielder__reserve { struct yielder__frame f; };
struct main__spawn_1    { int a0; long a1; cpc_function *cpc_fn; };
CPC_FRAMES_END

CPC_CPS_FN cpc_continuation *yielder__cps(cpc_continuation *cpc_k, int id, long n);
static inline CPC_CPS_FN cpc_continuation *yielder__body(cpc_continuation *cpc_k, int cpc_resume,
                                                         int id, long n);

/* The resume function passes the parameters the body reads from its
   frame (the body's own copy is dead after the frame is filled). */
static CPC_UNGUARDED CPC_RESUME_FN CPC_CPS_FN cpc_continuation *yielder__resume_1(cpc_continuation *cpc_k)
{
    return yielder__body(cpc_k, 1, CPC_TOP(cpc_k, struct yielder__frame)->id,
                         CPC_TOP(cpc_k, struct yielder__frame)->n);
}

static CPC_UNGUARDED CPC_COLD CPC_CPS_FN cpc_continuation *yielder__bounce(cpc_continuation *cpc_k)
{
    struct yielder__args *cpc_a = CPC_POP(cpc_k, struct yielder__args);
    return yielder__cps(cpc_k, cpc_a->id, cpc_a->n);
}

/* What the runtime's cpc_defer2 needs to save the arguments of a call
   that finds no room and to restart it through the bounce. */
static const cpc_deferral yielder__deferral = {
    yielder__bounce, sizeof(union yielder__reserve), sizeof(struct yielder__args), 2,
    { __builtin_offsetof(struct yielder__args, id), __builtin_offsetof(struct yielder__args, n) },
    { sizeof(((struct yielder__args *)0)->id), sizeof(((struct yielder__args *)0)->n) }
};

CPC_UNGUARDED CPC_CPS_FN cpc_continuation *yielder__cps(cpc_continuation *cpc_k, int id, long n)
{
    if (!cpc_enter(cpc_k, sizeof(union yielder__reserve)))
        return cpc_defer2(cpc_k, (cpc_word)(id), (cpc_word)(n), &yielder__deferral);
    return yielder__body(cpc_k, 0, id, n);
}

/* The variables live in the frame and are read and written there in
   place (cpcc's data flow at -O1 and above). */
static inline CPC_CPS_FN cpc_continuation *yielder__body(cpc_continuation *cpc_k, int cpc_resume,
                                                         int id, long n)
{
    struct yielder__frame *cpc_f;
    switch (cpc_resume) {
    case 1: goto yielder__resumed_1;
    }
    {   /* the frame of this invocation */
        cpc_f = CPC_PUSH_RESERVED(cpc_k, struct yielder__frame);
        cpc_f->id = id;
        cpc_f->n = n;
        cpc_f->cpc_fn = yielder__resume_1;
    }
    for (cpc_f->i = 0; cpc_f->i < cpc_f->n; cpc_f->i++) {
        if (cpc_f->i == warm && cpc_f->id == 0)
            mark_start();
        {   /* cpc_yield(); */
            return cpc_yield__cps(cpc_k);
        yielder__resumed_1:
            CPC_RESUMED();
            cpc_f = CPC_TOP(cpc_k, struct yielder__frame);
        }
    }
    if (cpc_f->id == 1)
        mark_end();
    CPC_DROP(cpc_k, struct yielder__frame);
    return cpc_resume_caller(cpc_k);
}

static CPC_CPS_FN cpc_continuation *main__spawn_1__start(cpc_continuation *cpc_k)
{
    struct main__spawn_1 *cpc_a = CPC_POP_FIRST(cpc_k, struct main__spawn_1);
    return yielder__cps(cpc_k, cpc_a->a0, cpc_a->a1);
}

/* ========================================================================
 * cond: ping-pong over two condition variables.
 *
 *   cpc_condvar *ca, *cb;
 *   cps void ping(long n) {
 *       long i;
 *       for (i = 0; i < n; i++) {
 *           if (i == warm) mark_start();
 *           cpc_signal(cb);
 *           cpc_wait(ca);
 *       }
 *       mark_end();
 *   }
 *   cps void pong(long n) {
 *       long i;
 *       for (i = 0; i < n; i++) {
 *           cpc_wait(cb);
 *           cpc_signal(ca);
 *       }
 *   }
 *   ...  cpc_spawn pong(n); cpc_spawn ping(n); cpc_main_loop();
 * ===================================================================== */

static cpc_condvar *ca, *cb;

CPC_FRAMES_BEGIN
struct ping__args    { long n; cpc_function *cpc_fn; };
struct ping__frame  { long n; long i; cpc_function *cpc_fn; };
union ping__reserve { struct ping__frame f; struct { struct ping__frame f; char w[CPC_WAIT_RECORD]; } w; };
struct pong__args    { long n; cpc_function *cpc_fn; };
struct pong__frame  { long n; long i; cpc_function *cpc_fn; };
union pong__reserve { struct pong__frame f; struct { struct pong__frame f; char w[CPC_WAIT_RECORD]; } w; };
struct main__spawn_2 { long a0; cpc_function *cpc_fn; };
struct main__spawn_3 { long a0; cpc_function *cpc_fn; };
CPC_FRAMES_END

CPC_CPS_FN cpc_continuation *ping__cps(cpc_continuation *cpc_k, long n);
CPC_CPS_FN cpc_continuation *pong__cps(cpc_continuation *cpc_k, long n);
static inline CPC_CPS_FN cpc_continuation *ping__body(cpc_continuation *cpc_k, int cpc_resume, long n);
static inline CPC_CPS_FN cpc_continuation *pong__body(cpc_continuation *cpc_k, int cpc_resume, long n);

static CPC_UNGUARDED CPC_RESUME_FN CPC_CPS_FN cpc_continuation *ping__resume_1(cpc_continuation *cpc_k)
{
    return ping__body(cpc_k, 1, CPC_TOP(cpc_k, struct ping__frame)->n);
}

static CPC_UNGUARDED CPC_COLD CPC_CPS_FN cpc_continuation *ping__bounce(cpc_continuation *cpc_k)
{
    struct ping__args *cpc_a = CPC_POP(cpc_k, struct ping__args);
    return ping__cps(cpc_k, cpc_a->n);
}

static const cpc_deferral ping__deferral = {
    ping__bounce, sizeof(union ping__reserve), sizeof(struct ping__args), 1,
    { __builtin_offsetof(struct ping__args, n) }, { sizeof(((struct ping__args *)0)->n) }
};

/* The entry reserves room for the frame and for the 8-byte record of a
   wait (ping__reserve's w), so the body waits without a room test. */
CPC_UNGUARDED CPC_CPS_FN cpc_continuation *ping__cps(cpc_continuation *cpc_k, long n)
{
    if (!cpc_enter(cpc_k, sizeof(union ping__reserve)))
        return cpc_defer1(cpc_k, (cpc_word)(n), &ping__deferral);
    return ping__body(cpc_k, 0, n);
}

static inline CPC_CPS_FN cpc_continuation *ping__body(cpc_continuation *cpc_k, int cpc_resume, long n)
{
    struct ping__frame *cpc_f;
    switch (cpc_resume) {
    case 1: goto ping__resumed_1;
    }
    {   /* the frame of this invocation */
        cpc_f = CPC_PUSH_RESERVED(cpc_k, struct ping__frame);
        cpc_f->n = n;
        cpc_f->cpc_fn = ping__resume_1;
    }
    for (cpc_f->i = 0; cpc_f->i < cpc_f->n; cpc_f->i++) {
        if (cpc_f->i == warm)
            mark_start();
        cpc_signal(cb);
        {   /* cpc_wait(ca); */
            return cpc_wait_reserved__cps(cpc_k, ca, -1, 0);
        ping__resumed_1:
            CPC_RESUMED();
            cpc_f = CPC_TOP(cpc_k, struct ping__frame);
        }
    }
    mark_end();
    CPC_DROP(cpc_k, struct ping__frame);
    return cpc_resume_caller(cpc_k);
}

static CPC_UNGUARDED CPC_RESUME_FN CPC_CPS_FN cpc_continuation *pong__resume_1(cpc_continuation *cpc_k)
{
    return pong__body(cpc_k, 1, CPC_TOP(cpc_k, struct pong__frame)->n);
}

static CPC_UNGUARDED CPC_COLD CPC_CPS_FN cpc_continuation *pong__bounce(cpc_continuation *cpc_k)
{
    struct pong__args *cpc_a = CPC_POP(cpc_k, struct pong__args);
    return pong__cps(cpc_k, cpc_a->n);
}

static const cpc_deferral pong__deferral = {
    pong__bounce, sizeof(union pong__reserve), sizeof(struct pong__args), 1,
    { __builtin_offsetof(struct pong__args, n) }, { sizeof(((struct pong__args *)0)->n) }
};

CPC_UNGUARDED CPC_CPS_FN cpc_continuation *pong__cps(cpc_continuation *cpc_k, long n)
{
    if (!cpc_enter(cpc_k, sizeof(union pong__reserve)))
        return cpc_defer1(cpc_k, (cpc_word)(n), &pong__deferral);
    return pong__body(cpc_k, 0, n);
}

static inline CPC_CPS_FN cpc_continuation *pong__body(cpc_continuation *cpc_k, int cpc_resume, long n)
{
    struct pong__frame *cpc_f;
    switch (cpc_resume) {
    case 1: goto pong__resumed_1;
    }
    {   /* the frame of this invocation */
        cpc_f = CPC_PUSH_RESERVED(cpc_k, struct pong__frame);
        cpc_f->n = n;
        cpc_f->cpc_fn = pong__resume_1;
    }
    for (cpc_f->i = 0; cpc_f->i < cpc_f->n; cpc_f->i++) {
        {   /* cpc_wait(cb); */
            return cpc_wait_reserved__cps(cpc_k, cb, -1, 0);
        pong__resumed_1:
            CPC_RESUMED();
            cpc_f = CPC_TOP(cpc_k, struct pong__frame);
        }
        cpc_signal(ca);
    }
    CPC_DROP(cpc_k, struct pong__frame);
    return cpc_resume_caller(cpc_k);
}

static CPC_CPS_FN cpc_continuation *main__spawn_2__start(cpc_continuation *cpc_k)
{
    struct main__spawn_2 *cpc_a = CPC_POP_FIRST(cpc_k, struct main__spawn_2);
    return pong__cps(cpc_k, cpc_a->a0);
}

static CPC_CPS_FN cpc_continuation *main__spawn_3__start(cpc_continuation *cpc_k)
{
    struct main__spawn_3 *cpc_a = CPC_POP_FIRST(cpc_k, struct main__spawn_3);
    return ping__cps(cpc_k, cpc_a->a0);
}

/* ========================================================================
 * spawn: create, run and end short threads, BENCH_SPAWN_BATCH at a time.
 *
 *   cpc_condvar *batch_done;
 *   long pending, children;
 *   cps void child(int id) {
 *       children++;
 *       if (--pending == 0) cpc_signal(batch_done);
 *   }
 *   cps void spawner(long n) {
 *       long i;
 *       for (i = 0; i < n; i++) {
 *           if (i == warm) mark_start();
 *           pending++;
 *           cpc_spawn child((int)i);
 *           if (pending == BENCH_SPAWN_BATCH) cpc_wait(batch_done);
 *       }
 *       if (pending > 0) cpc_wait(batch_done);
 *       mark_end();
 *   }
 *   ...  cpc_spawn spawner(n); cpc_main_loop();
 * ===================================================================== */

static cpc_condvar *batch_done;
static long pending, children;

CPC_FRAMES_BEGIN
struct child__args      { int id; cpc_function *cpc_fn; };
struct spawner__args    { long n; cpc_function *cpc_fn; };
struct spawner__frame  { long n; long i; cpc_function *cpc_fn; };
union spawner__reserve { struct spawner__frame f; struct { struct spawner__frame f; char w[CPC_WAIT_RECORD]; } w; };
struct spawner__spawn_1 { int a0; cpc_function *cpc_fn; };
struct main__spawn_4    { long a0; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* child makes no cps call: a leaf, whose entry spends no call budget
   (cpc_enter_leaf). */
CPC_CPS_FN cpc_continuation *child__cps(cpc_continuation *cpc_k, int id);
static inline CPC_CPS_FN cpc_continuation *child__body(cpc_continuation *cpc_k, int id);

static CPC_UNGUARDED CPC_COLD CPC_KEPT CPC_CPS_FN cpc_continuation *child__bounce(cpc_continuation *cpc_k)
{
    struct child__args *cpc_a = CPC_POP(cpc_k, struct child__args);
    return child__cps(cpc_k, cpc_a->id);
}

static const cpc_deferral child__deferral = {
    child__bounce, 0, sizeof(struct child__args), 1,
    { __builtin_offsetof(struct child__args, id) }, { sizeof(((struct child__args *)0)->id) }
};

CPC_UNGUARDED CPC_CPS_FN cpc_continuation *child__cps(cpc_continuation *cpc_k, int id)
{
    if (!cpc_enter_leaf(cpc_k, 0))
        return cpc_defer1(cpc_k, (cpc_word)(id), &child__deferral);
    return child__body(cpc_k, id);
}

static inline CPC_CPS_FN cpc_continuation *child__body(cpc_continuation *cpc_k, int id)
{
    (void)id;
    children++;
    if (--pending == 0)
        cpc_signal(batch_done);
    return cpc_resume_caller(cpc_k);
}

CPC_CPS_FN cpc_continuation *spawner__cps(cpc_continuation *cpc_k, long n);
static inline CPC_CPS_FN cpc_continuation *spawner__body(cpc_continuation *cpc_k, int cpc_resume,
                                                         long n);

static CPC_UNGUARDED CPC_RESUME_FN CPC_CPS_FN cpc_continuation *spawner__resume_1(cpc_continuation *cpc_k)
{
    return spawner__body(cpc_k, 1, CPC_TOP(cpc_k, struct spawner__frame)->n);
}

static CPC_UNGUARDED CPC_RESUME_FN CPC_CPS_FN cpc_continuation *spawner__resume_2(cpc_continuation *cpc_k)
{
    return spawner__body(cpc_k, 2, CPC_TOP(cpc_k, struct spawner__frame)->n);
}

static CPC_UNGUARDED CPC_COLD CPC_CPS_FN cpc_continuation *spawner__bounce(cpc_continuation *cpc_k)
{
    struct spawner__args *cpc_a = CPC_POP(cpc_k, struct spawner__args);
    return spawner__cps(cpc_k, cpc_a->n);
}

static const cpc_deferral spawner__deferral = {
    spawner__bounce, sizeof(union spawner__reserve), sizeof(struct spawner__args), 1,
    { __builtin_offsetof(struct spawner__args, n) }, { sizeof(((struct spawner__args *)0)->n) }
};

CPC_UNGUARDED CPC_CPS_FN cpc_continuation *spawner__cps(cpc_continuation *cpc_k, long n)
{
    if (!cpc_enter(cpc_k, sizeof(union spawner__reserve)))
        return cpc_defer1(cpc_k, (cpc_word)(n), &spawner__deferral);
    return spawner__body(cpc_k, 0, n);
}

static CPC_CPS_FN cpc_continuation *spawner__spawn_1__start(cpc_continuation *cpc_k)
{
    struct spawner__spawn_1 *cpc_a = CPC_POP_FIRST(cpc_k, struct spawner__spawn_1);
    return child__cps(cpc_k, cpc_a->a0);
}

static inline CPC_CPS_FN cpc_continuation *spawner__body(cpc_continuation *cpc_k, int cpc_resume,
                                                         long n)
{
    struct spawner__frame *cpc_f;
    switch (cpc_resume) {
    case 1: goto spawner__resumed_1;
    case 2: goto spawner__resumed_2;
    }
    {   /* the frame of this invocation: two resume points, so cpc_fn is
           stored at each of them */
        cpc_f = CPC_PUSH_RESERVED(cpc_k, struct spawner__frame);
        cpc_f->n = n;
    }
    for (cpc_f->i = 0; cpc_f->i < cpc_f->n; cpc_f->i++) {
        if (cpc_f->i == warm)
            mark_start();
        pending++;
        {   /* cpc_spawn child((int)i); */
            cpc_continuation *cpc_sk =
                cpc_continuation_new(sizeof(struct spawner__spawn_1));
            struct spawner__spawn_1 *cpc_a =
                CPC_PUSH_FIRST(cpc_sk, struct spawner__spawn_1);
            cpc_a->a0 = (int)cpc_f->i;
            cpc_a->cpc_fn = spawner__spawn_1__start;
            cpc_spawn_continuation(cpc_sk);
        }
        if (pending == BENCH_SPAWN_BATCH) {
            /* cpc_wait(batch_done); */
            cpc_f = CPC_TOP(cpc_k, struct spawner__frame);
            cpc_f->cpc_fn = spawner__resume_1;
            return cpc_wait_reserved__cps(cpc_k, batch_done, -1, 0);
        spawner__resumed_1:
            CPC_RESUMED();
            cpc_f = CPC_TOP(cpc_k, struct spawner__frame);
        }
    }
    if (pending > 0) {
        /* cpc_wait(batch_done); */
        cpc_f = CPC_TOP(cpc_k, struct spawner__frame);
        cpc_f->cpc_fn = spawner__resume_2;
        return cpc_wait_reserved__cps(cpc_k, batch_done, -1, 0);
    spawner__resumed_2:
        CPC_RESUMED();
        cpc_f = CPC_TOP(cpc_k, struct spawner__frame);
    }
    mark_end();
    CPC_DROP(cpc_k, struct spawner__frame);
    return cpc_resume_caller(cpc_k);
}

static CPC_CPS_FN cpc_continuation *main__spawn_4__start(cpc_continuation *cpc_k)
{
    struct main__spawn_4 *cpc_a = CPC_POP_FIRST(cpc_k, struct main__spawn_4);
    /* spawn_sched2: the condvar belongs to the scheduler running the
       spawner, so it is created there. */
    if (batch_done == NULL)
        batch_done = cpc_condvar_get();
    return spawner__cps(cpc_k, cpc_a->a0);
}

/* spawn_sched2: the spawn benchmark on a scheduler other than the default
   (cpc_scheduler_new), driven by the main thread: its continuations come
   from its own heap, as the default scheduler's do.  The condvar is left
   to the exit (it belongs to the other scheduler). */
static void spawn_on_second_scheduler(long n)
{
    cpc_sched *s = cpc_scheduler_new();
    bench_check(s != NULL, "cpc_scheduler_new");
    cpc_continuation *cpc_sk = cpc_continuation_new(sizeof(struct main__spawn_4));
    struct main__spawn_4 *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct main__spawn_4);
    cpc_a->a0 = n;
    cpc_a->cpc_fn = main__spawn_4__start;
    cpc_spawn_continuation_on(s, cpc_sk);
    cpc_scheduler_run(s);
    bench_check(children == n, "every child ran");
    bench_report_ns("spawn_sched2", BENCH_SYS, t1 - t0, (double)(n - warm));
}

/* ========================================================================
 * idle: bytes per thread waiting on a condition variable.
 *
 *   cpc_condvar *c;
 *   cps void waiter(int id) { cpc_wait(c); }
 *   cps void checker(void) { report(); cpc_signal_all(c); }
 *   ...  for (i = 0; i < n; i++) cpc_spawn waiter(i);
 *        cpc_spawn checker(); cpc_main_loop();
 *
 * The call to cpc_wait ends a void function and its value is discarded:
 * it is a tail call (no frame pushed).  A waiting thread is its
 * continuation alone: header + the bytes left by the spawn frame.
 * ===================================================================== */

static cpc_condvar *idle_c;
static long idle_base, idle_n;

CPC_FRAMES_BEGIN
struct waiter__args  { int id; cpc_function *cpc_fn; };
struct checker__args { cpc_function *cpc_fn; };
struct main__spawn_5 { int a0; cpc_function *cpc_fn; };
struct main__spawn_6 { cpc_function *cpc_fn; };
CPC_FRAMES_END

CPC_CPS_FN cpc_continuation *waiter__cps(cpc_continuation *cpc_k, int id);
static inline CPC_CPS_FN cpc_continuation *waiter__body(cpc_continuation *cpc_k, int id);

static CPC_UNGUARDED CPC_COLD CPC_CPS_FN cpc_continuation *waiter__bounce(cpc_continuation *cpc_k)
{
    struct waiter__args *cpc_a = CPC_POP(cpc_k, struct waiter__args);
    return waiter__cps(cpc_k, cpc_a->id);
}

static const cpc_deferral waiter__deferral = {
    waiter__bounce, 0, sizeof(struct waiter__args), 1,
    { __builtin_offsetof(struct waiter__args, id) }, { sizeof(((struct waiter__args *)0)->id) }
};

CPC_UNGUARDED CPC_CPS_FN cpc_continuation *waiter__cps(cpc_continuation *cpc_k, int id)
{
    if (!cpc_enter(cpc_k, 0))
        return cpc_defer1(cpc_k, (cpc_word)(id), &waiter__deferral);
    return waiter__body(cpc_k, id);
}

static inline CPC_CPS_FN cpc_continuation *waiter__body(cpc_continuation *cpc_k, int id)
{
    (void)id;
    return cpc_wait__cps(cpc_k, idle_c, -1, 0);
}

/* checker makes no cps call (cpc_signal_all is a native call): a leaf. */
CPC_CPS_FN cpc_continuation *checker__cps(cpc_continuation *cpc_k);
static inline CPC_CPS_FN cpc_continuation *checker__body(cpc_continuation *cpc_k);

static CPC_UNGUARDED CPC_COLD CPC_KEPT CPC_CPS_FN cpc_continuation *checker__bounce(cpc_continuation *cpc_k)
{
    (void)CPC_POP(cpc_k, struct checker__args);
    return checker__cps(cpc_k);
}

static const cpc_deferral checker__deferral = {
    checker__bounce, 0, sizeof(struct checker__args), 0, { 0 }, { 0 }
};

CPC_UNGUARDED CPC_CPS_FN cpc_continuation *checker__cps(cpc_continuation *cpc_k)
{
    if (!cpc_enter_leaf(cpc_k, 0))
        return cpc_defer0(cpc_k, &checker__deferral);
    return checker__body(cpc_k);
}

static inline CPC_CPS_FN cpc_continuation *checker__body(cpc_continuation *cpc_k)
{
    bench_check(cpc_condvar_count(idle_c) == idle_n, "every thread waits");
    bench_report_idle(BENCH_SYS, idle_base, idle_n);
    cpc_signal_all(idle_c);
    return cpc_resume_caller(cpc_k);
}

static CPC_CPS_FN cpc_continuation *main__spawn_5__start(cpc_continuation *cpc_k)
{
    struct main__spawn_5 *cpc_a = CPC_POP_FIRST(cpc_k, struct main__spawn_5);
    return waiter__cps(cpc_k, cpc_a->a0);
}

static CPC_CPS_FN cpc_continuation *main__spawn_6__start(cpc_continuation *cpc_k)
{
    (void)CPC_POP_FIRST(cpc_k, struct main__spawn_6);
    return checker__cps(cpc_k);
}

/* ===================================================================== */

int main(int argc, char **argv)
{
    long n, i;
    if (argc == 3 && strcmp(argv[1], "spawn_sched2") == 0 &&
        (n = atol(argv[2])) > 0) {
        warm = BENCH_WARMUP(n);
        spawn_on_second_scheduler(n);
        return 0;
    }
    bench_test test = bench_parse(argc, argv, &n, BENCH_SYS);
    warm = BENCH_WARMUP(n);
    switch (test) {
    case BENCH_SWITCH:
        for (i = 0; i < 2; i++) {   /* cpc_spawn yielder(i, n); */
            cpc_continuation *cpc_sk =
                cpc_continuation_new(sizeof(struct main__spawn_1));
            struct main__spawn_1 *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct main__spawn_1);
            cpc_a->a0 = (int)i;
            cpc_a->a1 = n;
            cpc_a->cpc_fn = main__spawn_1__start;
            cpc_spawn_continuation(cpc_sk);
        }
        bench_loop();
        bench_report_ns("switch", BENCH_SYS, t1 - t0, 2.0 * (double)(n - warm));
        break;
    case BENCH_COND:
        ca = cpc_condvar_get();
        cb = cpc_condvar_get();
        {   /* cpc_spawn pong(n); */
            cpc_continuation *cpc_sk =
                cpc_continuation_new(sizeof(struct main__spawn_2));
            struct main__spawn_2 *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct main__spawn_2);
            cpc_a->a0 = n;
            cpc_a->cpc_fn = main__spawn_2__start;
            cpc_spawn_continuation(cpc_sk);
        }
        {   /* cpc_spawn ping(n); */
            cpc_continuation *cpc_sk =
                cpc_continuation_new(sizeof(struct main__spawn_3));
            struct main__spawn_3 *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct main__spawn_3);
            cpc_a->a0 = n;
            cpc_a->cpc_fn = main__spawn_3__start;
            cpc_spawn_continuation(cpc_sk);
        }
        bench_loop();
        cpc_condvar_release(ca);
        cpc_condvar_release(cb);
        bench_report_ns("cond", BENCH_SYS, t1 - t0, 2.0 * (double)(n - warm));
        break;
    case BENCH_SPAWN:
        batch_done = cpc_condvar_get();
        {   /* cpc_spawn spawner(n); */
            cpc_continuation *cpc_sk =
                cpc_continuation_new(sizeof(struct main__spawn_4));
            struct main__spawn_4 *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct main__spawn_4);
            cpc_a->a0 = n;
            cpc_a->cpc_fn = main__spawn_4__start;
            cpc_spawn_continuation(cpc_sk);
        }
        bench_loop();
        cpc_condvar_release(batch_done);
        bench_check(children == n, "every child ran");
        bench_report_ns("spawn", BENCH_SYS, t1 - t0, (double)(n - warm));
        break;
    case BENCH_IDLE:
        idle_c = cpc_condvar_get();
        idle_n = n;
        idle_base = bench_peak_rss();
        for (i = 0; i < n; i++) {   /* cpc_spawn waiter(i); */
            cpc_continuation *cpc_sk =
                cpc_continuation_new(sizeof(struct main__spawn_5));
            struct main__spawn_5 *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct main__spawn_5);
            cpc_a->a0 = (int)i;
            cpc_a->cpc_fn = main__spawn_5__start;
            cpc_spawn_continuation(cpc_sk);
        }
        {   /* cpc_spawn checker(); */
            cpc_continuation *cpc_sk =
                cpc_continuation_new(sizeof(struct main__spawn_6));
            struct main__spawn_6 *cpc_a = CPC_PUSH_FIRST(cpc_sk, struct main__spawn_6);
            cpc_a->cpc_fn = main__spawn_6__start;
            cpc_spawn_continuation(cpc_sk);
        }
        bench_loop();
        cpc_condvar_release(idle_c);
        break;
    }
    return 0;
}
