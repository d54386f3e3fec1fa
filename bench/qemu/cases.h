/* bench/qemu/cases.h -- table 2 of "QEMU/CPC" (QEMU's coroutine
 * micro-benchmarks, from QEMU's test-coroutine.c): lifecycle, nesting
 * (1,000 levels) and yield, with and without the pool.  The same source
 * runs on every backend: compiled by cpcc against <cpc/qemu-coroutine.h>
 * (cpc.cpc), or by cc against one of the stack-based backends written here
 * (coro_backend.h).  The includer defines BACKEND (its name), POOL_OK
 * (whether it has a pool) and set_pool(int on).
 *
 *   lifecycle  create an empty coroutine, enter it, it ends
 *   nesting    a coroutine creates and enters the next, 1,000 deep, each
 *              bumping a shared counter; ns per nested coroutine
 *   yield      enter a coroutine that decrements a counter and yields;
 *              ns per enter+yield
 *
 * Each figure is the median of 3 timed runs, each sized (by a calibration
 * run) to take about BENCH_TARGET seconds (0.2; 0.02 with BENCH_QUICK=1),
 * on the thread's CPU time (BENCH_CLOCK=wall for the monotonic clock; the
 * thread backend, whose work runs on other threads, always uses it).
 * Output: `qemu.<case>[_pool].<backend> <ns>` lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NEST_DEPTH 1000

static void coroutine_fn empty_coroutine(void *opaque)
{
    (void)opaque;
}

typedef struct {
    unsigned n_enter, n_return, max;
} NestData;

static void coroutine_fn nest(void *opaque)
{
    NestData *nd = opaque;
    nd->n_enter++;
    if (nd->n_enter < nd->max)
        qemu_coroutine_enter(qemu_coroutine_create(nest, nd));
    nd->n_return++;
}

static void coroutine_fn yield_loop(void *opaque)
{
    unsigned long *counter = opaque;
    while (*counter > 0) {
        (*counter)--;
        qemu_coroutine_yield();
    }
}

static double bench_clock(void)
{
    static int wall = -1;
    struct timespec ts;
    if (wall < 0) {
        const char *c = getenv("BENCH_CLOCK");
#ifdef BENCH_DEFAULT_WALL
        /* the work runs on other threads: the caller's CPU time misses it */
        wall = c == NULL || strcmp(c, "cpu") != 0;
#else
        wall = c != NULL && strcmp(c, "wall") == 0;
#endif
    }
    clock_gettime(wall ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Each returns the seconds taken by n operations. */
static double run_lifecycle(unsigned long n)
{
    double t0 = bench_clock();
    for (unsigned long i = 0; i < n; i++)
        qemu_coroutine_enter(qemu_coroutine_create(empty_coroutine, NULL));
    return bench_clock() - t0;
}

static double run_nesting(unsigned long n)
{
    unsigned long cycles = (n + NEST_DEPTH - 1) / NEST_DEPTH;
    double t0 = bench_clock();
    for (unsigned long i = 0; i < cycles; i++) {
        NestData nd = { 0, 0, NEST_DEPTH };
        qemu_coroutine_enter(qemu_coroutine_create(nest, &nd));
        if (nd.n_return != NEST_DEPTH) {
            fprintf(stderr, "nesting: %u returns, expected %u\n", nd.n_return, NEST_DEPTH);
            exit(1);
        }
    }
    return (bench_clock() - t0) * (double)n / (double)(cycles * NEST_DEPTH);
}

static double run_yield(unsigned long n)
{
    unsigned long counter = n;
    Coroutine *co = qemu_coroutine_create(yield_loop, &counter);
    double t0 = bench_clock();
    while (counter > 0)
        qemu_coroutine_enter(co);
    double t = bench_clock() - t0;
    qemu_coroutine_enter(co);       /* lets it end */
    return t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ns per operation of run(n), n sized to take about `target` seconds. */
static double measure(double (*run)(unsigned long), unsigned long start, double target)
{
    unsigned long n = start;
    double t;
    while ((t = run(n)) < target / 8 && n < (1ul << 40))
        n *= 4;
    unsigned long sized = (unsigned long)((double)n * target / (t > 0 ? t : 1e-9));
    if (sized < 1)
        sized = 1;
    double ns[3];
    for (int i = 0; i < 3; i++)
        ns[i] = run(sized) * 1e9 / (double)sized;
    qsort(ns, 3, sizeof ns[0], cmp_double);
    return ns[1];
}

static void report(const char *name, int pool, double ns)
{
    printf("qemu.%s%s.%s %.1f\n", name, pool ? "_pool" : "", BACKEND, ns);
    fflush(stdout);
}

/* argv: [case...] among lifecycle nesting yield (default: all). */
static int bench_main(int argc, char **argv)
{
    static const struct {
        const char *name;
        double (*run)(unsigned long);
        unsigned long start;
    } cases[] = {
        { "lifecycle", run_lifecycle, 100 },
        { "nesting", run_nesting, NEST_DEPTH },
        { "yield", run_yield, 100 },
    };
    const char *q = getenv("BENCH_QUICK");
    const char *tg = getenv("BENCH_TARGET");
    double target = tg != NULL ? atof(tg) : (q != NULL && *q && *q != '0') ? 0.02 : 0.2;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int wanted = argc <= 1;
        for (int i = 1; i < argc; i++)
            wanted |= strcmp(argv[i], cases[c].name) == 0;
        if (!wanted)
            continue;
        for (int pool = 0; pool <= POOL_OK; pool++) {
            set_pool(pool);
            report(cases[c].name, pool, measure(cases[c].run, cases[c].start, target));
        }
    }
    return 0;
}
