// boostctx.cpp -- the boost.context peer (stackful, fcontext-based fibers).
//
// A thread is a boost::context::fiber with its own stack (16 KiB), taken
// from a minimal cached stack allocator: stacks are carved out of large
// mmap'd regions and recycled through a free list, so neither spawning nor
// ending a thread makes a system call once warm.  The thread's control block
// (queue link + suspended context) lives at the top of its own stack
// (boost::context::preallocated), so a thread is one allocation.
//
// Switching is direct (symmetric): a thread that yields or waits pops the
// next runnable thread and resumes it; the resumed side files the suspended
// context where it belongs (run queue or condvar).  The main context is
// switched to only when nothing is runnable.  One context switch per thread
// switch: the fastest shape boost.context allows.
#include <boost/context/fiber.hpp>
#include <boost/context/preallocated.hpp>
#include <boost/context/stack_context.hpp>
#include <sys/mman.h>
#include <new>
#include <vector>
#include "bench_common.h"

namespace ctx = boost::context;

#ifndef STACK_SIZE
#define STACK_SIZE (16 * 1024)
#endif
#define STACKS_PER_REGION 256

// Fixed-size stacks, recycled (a StackAllocator: copyable handle).
struct stack_pool {
    std::vector<void *> free_tops;
    void refill()
    {
        size_t len = (size_t)STACK_SIZE * STACKS_PER_REGION;
        void *m = mmap(nullptr, len, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        bench_check(m != MAP_FAILED, "mmap of stacks");
        for (int i = STACKS_PER_REGION; i > 0; i--)
            free_tops.push_back(static_cast<char *>(m) + (size_t)i * STACK_SIZE);
    }
};

struct cached_stack {
    stack_pool *pool;
    ctx::stack_context allocate()
    {
        if (pool->free_tops.empty())
            pool->refill();
        ctx::stack_context sctx;
        sctx.sp = pool->free_tops.back();
        sctx.size = STACK_SIZE;
        pool->free_tops.pop_back();
        return sctx;
    }
    void deallocate(ctx::stack_context &sctx) noexcept
    {
        pool->free_tops.push_back(sctx.sp);
    }
};

struct thread {
    thread *next;
    ctx::fiber self;  // the suspended context, while not running
};

struct queue {
    thread *head = nullptr, *tail = nullptr;
    void push(thread *t) noexcept
    {
        t->next = nullptr;
        if (tail != nullptr)
            tail->next = t;
        else
            head = t;
        tail = t;
    }
    thread *pop() noexcept
    {
        thread *t = head;
        if (t != nullptr) {
            head = t->next;
            if (head == nullptr)
                tail = nullptr;
        }
        return t;
    }
};

static queue runq;
static stack_pool pool;
static thread main_thread;  // the context of run(), while threads run
static thread *current;
static thread *from;        // the thread that just switched away ...
static queue *from_q;       // ... and where it goes (nullptr: nowhere)

// Called on every arrival in a context: file the one we came from.
static inline void arrived(ctx::fiber &&f)
{
    if (from != nullptr) {
        from->self = std::move(f);
        if (from_q != nullptr)
            from_q->push(from);
        from = nullptr;
    }
}

static inline void switch_to(thread *next)
{
    current = next;
    arrived(std::move(next->self).resume());
}

template <typename Fn>
static void spawn(Fn fn)
{
    ctx::stack_context sctx = cached_stack{&pool}.allocate();
    // Control block at the top of the stack, 64-byte aligned.
    uintptr_t top = reinterpret_cast<uintptr_t>(sctx.sp);
    uintptr_t cb = (top - sizeof(thread)) & ~uintptr_t(63);
    thread *t = new (reinterpret_cast<void *>(cb)) thread;
    std::size_t size = sctx.size - (top - cb);
    t->self = ctx::fiber(
        std::allocator_arg,
        ctx::preallocated(reinterpret_cast<void *>(cb), size, sctx),
        cached_stack{&pool}, [fn](ctx::fiber &&f) {
            arrived(std::move(f));
            fn();
            // End: hand the CPU to the next thread (or to run()).
            thread *next = runq.pop();
            if (next == nullptr)
                next = &main_thread;
            current = next;
            return std::move(next->self);
        });
    runq.push(t);
}

// Suspend the current thread into queue q (the run queue for a yield).
static inline void suspend(queue *q)
{
    thread *next = runq.pop();
    if (next == nullptr) {
        if (q == &runq)
            return;  // yield with nobody else runnable
        next = &main_thread;
    }
    from = current;
    from_q = q;
    switch_to(next);
}

static inline void yield() { suspend(&runq); }

struct condvar {
    queue waiters;
    void wait() { suspend(&waiters); }
    void signal()
    {
        if (thread *t = waiters.pop())
            runq.push(t);
    }
    void signal_all()
    {
        while (thread *t = waiters.pop())
            runq.push(t);
    }
};

static void run()
{
    while (thread *t = runq.pop()) {
        from = &main_thread;
        from_q = nullptr;
        switch_to(t);
    }
}

static double t0, t1;
static long warm;

// ---- switch ---------------------------------------------------------------
static void yielder(int id, long n)
{
    for (long i = 0; i < n; i++) {
        if (i == warm && id == 0)
            t0 = bench_now_ns();
        yield();
    }
    if (id == 1)
        t1 = bench_now_ns();
}

// ---- cond -----------------------------------------------------------------
static condvar ca, cb;

static void ping(long n)
{
    for (long i = 0; i < n; i++) {
        if (i == warm)
            t0 = bench_now_ns();
        cb.signal();
        ca.wait();
    }
    t1 = bench_now_ns();
}

static void pong(long n)
{
    for (long i = 0; i < n; i++) {
        cb.wait();
        ca.signal();
    }
}

// ---- spawn ----------------------------------------------------------------
static condvar batch_done;
static long pending, children;

static void child(int id)
{
    (void)id;
    children++;
    if (--pending == 0)
        batch_done.signal();
}

static void spawner(long n)
{
    for (long i = 0; i < n; i++) {
        if (i == warm)
            t0 = bench_now_ns();
        pending++;
        int id = (int)i;
        spawn([id] { child(id); });
        if (pending == BENCH_SPAWN_BATCH)
            batch_done.wait();
    }
    if (pending > 0)
        batch_done.wait();
    t1 = bench_now_ns();
}

// ---- idle -----------------------------------------------------------------
static condvar idle_c;
static long idle_base, idle_n, idle_woken;

static void waiter(int id)
{
    (void)id;
    idle_c.wait();
    idle_woken++;
}

int main(int argc, char **argv)
{
    long n;
    bench_test test = bench_parse(argc, argv, &n, "boost");
    warm = BENCH_WARMUP(n);
    switch (test) {
    case BENCH_SWITCH:
        spawn([n] { yielder(0, n); });
        spawn([n] { yielder(1, n); });
        run();
        bench_report_ns("switch", "boost", t1 - t0, 2.0 * (double)(n - warm));
        break;
    case BENCH_COND:
        spawn([n] { pong(n); });
        spawn([n] { ping(n); });
        run();
        bench_report_ns("cond", "boost", t1 - t0, 2.0 * (double)(n - warm));
        break;
    case BENCH_SPAWN:
        spawn([n] { spawner(n); });
        run();
        bench_check(children == n, "every child ran");
        bench_report_ns("spawn", "boost", t1 - t0, (double)(n - warm));
        break;
    case BENCH_IDLE:
        idle_n = n;
        idle_base = bench_peak_rss();
        for (long i = 0; i < n; i++) {
            int id = (int)i;
            spawn([id] { waiter(id); });
        }
        spawn([] {
            bench_report_idle("boost", idle_base, idle_n);
            idle_c.signal_all();
        });
        run();
        bench_check(idle_woken == n, "every waiter woke");
        break;
    }
    return 0;
}
