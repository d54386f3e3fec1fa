/* fib_ucontext.c -- the thread benchmark of "One-shot
   continuations" (fig. 5), stackful, with
   ucontext: THREADS threads, each on its own 16 KiB stack, compute fib(20)
   with native calls and switch back to a round-robin scheduler every
   EVERY calls (swapcontext, which also saves and restores the signal mask:
   a system call per switch).  With -DNATIVE it is the reference instead:
   the same computations one after the other, no threads and no switches
   (EVERY is ignored).  Prints
       BENCH fib.ucontext.t<THREADS>.e<EVERY> <ms> ms     (fib.native...)
   Usage: fib-ucontext THREADS EVERY [N] */
#include <ucontext.h>
#include "bench_common.h"

#define STACK (16 * 1024)

static long calls, every, sum;
#ifndef NATIVE
static ucontext_t sched_ctx;
#endif
static ucontext_t *cur;

static void yield(void)
{
#ifndef NATIVE
    swapcontext(cur, &sched_ctx);
#endif
}

static int __attribute__((noinline)) fib(int n)
{
    if (++calls >= every) {
        calls = 0;
        yield();
    }
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

static int fib_n;

static void worker(void)
{
    sum += fib(fib_n);
    cur = NULL;   /* tells the scheduler this thread has finished */
}

int main(int argc, char **argv)
{
    long threads, i, live;
    double t0;
    if (argc < 3) {
        fprintf(stderr, "usage: fib-ucontext THREADS EVERY [N]\n");
        return 2;
    }
    threads = atol(argv[1]);
    every = atol(argv[2]);
    fib_n = argc > 3 ? atoi(argv[3]) : 20;
    t0 = bench_now_ns();
#ifdef NATIVE
    every = -1;   /* never reached: ++calls stays positive */
    for (i = 0; i < threads; i++)
        worker();
    (void)live;
    printf("BENCH fib.native.t%ld.e%s %.3f ms\n# sum %ld\n", threads, argv[2],
           (bench_now_ns() - t0) / 1e6, sum);
#else
    {
        ucontext_t *ctx = calloc((size_t)threads, sizeof *ctx);
        char *stacks = malloc((size_t)threads * STACK);
        char *done = calloc((size_t)threads, 1);
        bench_check(ctx && stacks && done, "allocation");
        for (i = 0; i < threads; i++) {
            getcontext(&ctx[i]);
            ctx[i].uc_stack.ss_sp = stacks + (size_t)i * STACK;
            ctx[i].uc_stack.ss_size = STACK;
            ctx[i].uc_link = &sched_ctx;   /* a finished thread returns here */
            makecontext(&ctx[i], worker, 0);
        }
        /* Round-robin until every thread has returned (through uc_link,
           after clearing cur). */
        live = threads;
        while (live > 0)
            for (i = 0; i < threads; i++) {
                if (done[i])
                    continue;
                cur = &ctx[i];
                swapcontext(&sched_ctx, &ctx[i]);
                if (cur == NULL) {
                    done[i] = 1;
                    live--;
                }
            }
        printf("BENCH fib.ucontext.t%ld.e%ld %.3f ms\n# sum %ld\n", threads, every,
               (bench_now_ns() - t0) / 1e6, sum);
    }
#endif
    return 0;
}
