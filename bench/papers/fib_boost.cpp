// fib_boost.cpp -- the thread benchmark of "One-shot
// continuations" (fig. 5), stackful, with
// boost.context's fcontext (the assembly context switch under its fibers):
// THREADS threads, each on its own 16 KiB stack, compute fib(20) with
// native calls and jump back to a round-robin scheduler every EVERY calls
// (two jump_fcontext per switch, as CPC's yield returns to its scheduler).
// Prints  BENCH fib.boost.t<THREADS>.e<EVERY> <ms> ms
// Usage: fib-boost THREADS EVERY [N]
#include <boost/context/detail/fcontext.hpp>
#include <cstdlib>
#include <vector>
#include "bench_common.h"

using boost::context::detail::fcontext_t;
using boost::context::detail::jump_fcontext;
using boost::context::detail::make_fcontext;
using boost::context::detail::transfer_t;

static const std::size_t STACK = 16 * 1024;
static long calls, every, sum;
static int fib_n;
static fcontext_t sched_ctx;   // where a running thread jumps back to

static void yield()
{
    sched_ctx = jump_fcontext(sched_ctx, nullptr).fctx;
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

static void worker(transfer_t t)
{
    sched_ctx = t.fctx;
    sum += fib(fib_n);
    jump_fcontext(sched_ctx, reinterpret_cast<void *>(1));   // finished
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: fib-boost THREADS EVERY [N]\n");
        return 2;
    }
    long threads = std::atol(argv[1]);
    every = std::atol(argv[2]);
    fib_n = argc > 3 ? std::atoi(argv[3]) : 20;
    double t0 = bench_now_ns();
    std::vector<fcontext_t> ctx(threads);
    std::vector<char> done(threads, 0);
    char *stacks = static_cast<char *>(std::malloc(threads * STACK));
    bench_check(stacks != nullptr, "allocation");
    for (long i = 0; i < threads; i++)
        ctx[i] = make_fcontext(stacks + (i + 1) * STACK, STACK, worker);
    long live = threads;
    while (live > 0)
        for (long i = 0; i < threads; i++) {
            if (done[i])
                continue;
            transfer_t t = jump_fcontext(ctx[i], nullptr);
            ctx[i] = t.fctx;
            if (t.data != nullptr) {
                done[i] = 1;
                live--;
            }
        }
    printf("BENCH fib.boost.t%ld.e%ld %.3f ms\n# sum %ld\n", threads, every,
                (bench_now_ns() - t0) / 1e6, sum);
    std::free(stacks);
    return 0;
}
