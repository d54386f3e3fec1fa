// coro.cpp -- the C++20 stackless coroutine peer (g++ -std=c++20).
//
// A thread is a coroutine of type `task`; its frame is allocated by the
// compiler with operator new when the coroutine is called and freed when it
// finishes (final_suspend never suspends).  The scheduler is minimal: an
// intrusive FIFO run queue of promises; a condition variable is an
// intrusive FIFO of promises.  Spawning = calling the coroutine, which
// suspends at once and queues itself.
#include <coroutine>
#include <exception>
#include "bench_common.h"

struct task {
    struct promise_type {
        promise_type *next = nullptr;
        task get_return_object() noexcept { return {}; }
        auto initial_suspend() noexcept;
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() noexcept {}
        void unhandled_exception() noexcept { std::terminate(); }
    };
};
using promise = task::promise_type;
using handle = std::coroutine_handle<promise>;

struct queue {
    promise *head = nullptr, *tail = nullptr;
    void push(promise *p) noexcept
    {
        p->next = nullptr;
        if (tail != nullptr)
            tail->next = p;
        else
            head = p;
        tail = p;
    }
    promise *pop() noexcept
    {
        promise *p = head;
        if (p != nullptr) {
            head = p->next;
            if (head == nullptr)
                tail = nullptr;
        }
        return p;
    }
};

static queue runq;

// Queue the new coroutine instead of running it from the caller.
struct spawn_awaiter {
    bool await_ready() const noexcept { return false; }
    void await_suspend(handle h) const noexcept { runq.push(&h.promise()); }
    void await_resume() const noexcept {}
};
inline auto promise::initial_suspend() noexcept { return spawn_awaiter{}; }

struct yield_awaiter {
    bool await_ready() const noexcept { return false; }
    void await_suspend(handle h) const noexcept { runq.push(&h.promise()); }
    void await_resume() const noexcept {}
};
static inline yield_awaiter yield() { return {}; }

struct condvar {
    queue waiters;
    struct awaiter {
        condvar *c;
        bool await_ready() const noexcept { return false; }
        void await_suspend(handle h) const noexcept { c->waiters.push(&h.promise()); }
        void await_resume() const noexcept {}
    };
    awaiter wait() noexcept { return {this}; }
    void signal() noexcept
    {
        if (promise *p = waiters.pop())
            runq.push(p);
    }
    void signal_all() noexcept
    {
        while (promise *p = waiters.pop())
            runq.push(p);
    }
};

static void run()
{
    while (promise *p = runq.pop())
        handle::from_promise(*p).resume();
}

static double t0, t1;
static long warm;

// ---- switch ---------------------------------------------------------------
static task yielder(int id, long n)
{
    for (long i = 0; i < n; i++) {
        if (i == warm && id == 0)
            t0 = bench_now_ns();
        co_await yield();
    }
    if (id == 1)
        t1 = bench_now_ns();
}

// ---- cond -----------------------------------------------------------------
static condvar ca, cb;

static task ping(long n)
{
    for (long i = 0; i < n; i++) {
        if (i == warm)
            t0 = bench_now_ns();
        cb.signal();
        co_await ca.wait();
    }
    t1 = bench_now_ns();
}

static task pong(long n)
{
    for (long i = 0; i < n; i++) {
        co_await cb.wait();
        ca.signal();
    }
}

// ---- spawn ----------------------------------------------------------------
static condvar batch_done;
static long pending, children;

static task child(int id)
{
    (void)id;
    children++;
    if (--pending == 0)
        batch_done.signal();
    co_return;
}

static task spawner(long n)
{
    for (long i = 0; i < n; i++) {
        if (i == warm)
            t0 = bench_now_ns();
        pending++;
        child((int)i);
        if (pending == BENCH_SPAWN_BATCH)
            co_await batch_done.wait();
    }
    if (pending > 0)
        co_await batch_done.wait();
    t1 = bench_now_ns();
}

// ---- idle -----------------------------------------------------------------
static condvar idle_c;
static long idle_base, idle_n, idle_woken;

static task waiter(int id)
{
    (void)id;
    co_await idle_c.wait();
    idle_woken++;
}

static task checker()
{
    bench_report_idle("coro", idle_base, idle_n);
    idle_c.signal_all();
    co_return;
}

int main(int argc, char **argv)
{
    long n;
    bench_test test = bench_parse(argc, argv, &n, "coro");
    warm = BENCH_WARMUP(n);
    switch (test) {
    case BENCH_SWITCH:
        yielder(0, n);
        yielder(1, n);
        run();
        bench_report_ns("switch", "coro", t1 - t0, 2.0 * (double)(n - warm));
        break;
    case BENCH_COND:
        pong(n);
        ping(n);
        run();
        bench_report_ns("cond", "coro", t1 - t0, 2.0 * (double)(n - warm));
        break;
    case BENCH_SPAWN:
        spawner(n);
        run();
        bench_check(children == n, "every child ran");
        bench_report_ns("spawn", "coro", t1 - t0, (double)(n - warm));
        break;
    case BENCH_IDLE:
        idle_n = n;
        idle_base = bench_peak_rss();
        for (long i = 0; i < n; i++)
            waiter((int)i);
        checker();
        run();
        bench_check(idle_woken == n, "every waiter woke");
        break;
    }
    return 0;
}
