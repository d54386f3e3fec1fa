/*
 * st.c -- the State Threads peer (libst 1.9, Debian's libst-dev).
 *
 * A thread is an ST thread with its own stack (ST's default size; ST keeps
 * freed stacks in a cache).  ST has no yield primitive: the documented way
 * to give up the CPU is st_usleep(0), which goes through ST's sleep queue
 * and its idle (event loop) thread -- that is what "switch" measures here.
 * Condition variables are ST's own (st_cond_wait / st_cond_signal).
 */
#include <st.h>
#include "bench_common.h"

static double t0, t1;
static long warm;
static st_cond_t all_done;
static int running;

static void thread_ended(void)
{
    if (--running == 0)
        st_cond_signal(all_done);
}

static void start(void *(*fn)(void *), void *arg)
{
    running++;
    bench_check(st_thread_create(fn, arg, 0, 0) != NULL, "st_thread_create");
}

static void wait_all(void)
{
    while (running > 0)
        st_cond_wait(all_done);
}

/* ---- switch ------------------------------------------------------------ */
static long sw_n;

static void *yielder(void *arg)
{
    long id = (long)arg, i;
    for (i = 0; i < sw_n; i++) {
        if (i == warm && id == 0)
            t0 = bench_now_ns();
        st_usleep(0);
    }
    if (id == 1)
        t1 = bench_now_ns();
    thread_ended();
    return NULL;
}

/* ---- cond -------------------------------------------------------------- */
static st_cond_t ca, cb;

static void *ping(void *arg)
{
    long n = (long)arg, i;
    for (i = 0; i < n; i++) {
        if (i == warm)
            t0 = bench_now_ns();
        st_cond_signal(cb);
        st_cond_wait(ca);
    }
    t1 = bench_now_ns();
    thread_ended();
    return NULL;
}

static void *pong(void *arg)
{
    long n = (long)arg, i;
    for (i = 0; i < n; i++) {
        st_cond_wait(cb);
        st_cond_signal(ca);
    }
    thread_ended();
    return NULL;
}

/* ---- spawn ------------------------------------------------------------- */
static st_cond_t batch_done;
static long pending, children;

static void *child(void *arg)
{
    (void)arg;
    children++;
    if (--pending == 0)
        st_cond_signal(batch_done);
    return NULL;
}

static void *spawner(void *arg)
{
    long n = (long)arg, i;
    for (i = 0; i < n; i++) {
        if (i == warm)
            t0 = bench_now_ns();
        pending++;
        bench_check(st_thread_create(child, (void *)i, 0, 0) != NULL,
                    "st_thread_create");
        if (pending == BENCH_SPAWN_BATCH)
            st_cond_wait(batch_done);
    }
    if (pending > 0)
        st_cond_wait(batch_done);
    t1 = bench_now_ns();
    thread_ended();
    return NULL;
}

/* ---- idle -------------------------------------------------------------- */
static st_cond_t idle_c;
static long idle_base, idle_n, idle_woken;

static void *waiter(void *arg)
{
    (void)arg;
    st_cond_wait(idle_c);
    idle_woken++;
    thread_ended();
    return NULL;
}

static void *checker(void *arg)
{
    (void)arg;
    bench_report_idle("st", idle_base, idle_n);
    st_cond_broadcast(idle_c);
    thread_ended();
    return NULL;
}

int main(int argc, char **argv)
{
    long n, i;
    bench_test test = bench_parse(argc, argv, &n, "st");
    warm = BENCH_WARMUP(n);
    bench_check(st_init() == 0, "st_init");
    all_done = st_cond_new();
    switch (test) {
    case BENCH_SWITCH:
        sw_n = n;
        start(yielder, (void *)0L);
        start(yielder, (void *)1L);
        wait_all();
        bench_report_ns("switch", "st", t1 - t0, 2.0 * (double)(n - warm));
        break;
    case BENCH_COND:
        ca = st_cond_new();
        cb = st_cond_new();
        start(pong, (void *)n);
        start(ping, (void *)n);
        wait_all();
        bench_report_ns("cond", "st", t1 - t0, 2.0 * (double)(n - warm));
        break;
    case BENCH_SPAWN:
        batch_done = st_cond_new();
        start(spawner, (void *)n);
        wait_all();
        bench_check(children == n, "every child ran");
        bench_report_ns("spawn", "st", t1 - t0, (double)(n - warm));
        break;
    case BENCH_IDLE:
        idle_c = st_cond_new();
        idle_n = n;
        idle_base = bench_peak_rss();
        for (i = 0; i < n; i++)
            start(waiter, (void *)i);
        start(checker, NULL);
        wait_all();
        bench_check(idle_woken == n, "every waiter woke");
        break;
    }
    return 0;
}
