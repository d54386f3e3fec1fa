/* idle_threads.c -- the memory table of "Continuation-Passing
   C" (fig. 4) for the thread
   libraries that the runtime micro-benchmarks do not cover: COUNT threads
   that all wait on one condition variable, for kernel threads (nptl,
   default attributes: 8 MiB of address space per stack, of which the
   touched pages count) or, with -DUSE_PTH, GNU Pth (default 64 KiB
   stacks).  Prints the peak RSS growth per thread:
       BENCH runtime.idle.<sys> <bytes> B
   The kernel's own memory per thread (nptl: task structure and kernel
   stack) is not in the process's RSS and is not counted.
   Usage: idle-SYS COUNT */
#include <errno.h>
#include <unistd.h>
#include "bench_common.h"

#ifdef USE_PTH
#include <pth.h>
#define SYS "pth"
static pth_mutex_t lock = PTH_MUTEX_INIT;
static pth_cond_t cond = PTH_COND_INIT;
#define LOCK() pth_mutex_acquire(&lock, FALSE, NULL)
#define UNLOCK() pth_mutex_release(&lock)
#define WAIT() pth_cond_await(&cond, &lock, NULL)
#define BROADCAST() pth_cond_notify(&cond, TRUE)
#else
#include <pthread.h>
#define SYS "nptl"
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
#define LOCK() pthread_mutex_lock(&lock)
#define UNLOCK() pthread_mutex_unlock(&lock)
#define WAIT() pthread_cond_wait(&cond, &lock)
#define BROADCAST() pthread_cond_broadcast(&cond)
#endif

static long waiting, released;

static void *waiter(void *arg)
{
    (void)arg;
    LOCK();
    waiting++;
    while (!released)
        WAIT();
    waiting--;
    UNLOCK();
    return NULL;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000, i, base;
#ifdef USE_PTH
    pth_attr_t attr;
    pth_init();
    attr = pth_attr_new();
    pth_attr_set(attr, PTH_ATTR_JOINABLE, FALSE);
#else
    pthread_attr_t attr;
    pthread_t t;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
#endif
    base = bench_peak_rss();
    for (i = 0; i < n; i++) {
#ifdef USE_PTH
        bench_check(pth_spawn(attr, waiter, NULL) != NULL, "pth_spawn");
#else
        bench_check(pthread_create(&t, &attr, waiter, NULL) == 0, "pthread_create");
#endif
    }
    /* Until every thread is waiting. */
    for (;;) {
        LOCK();
        i = waiting;
        UNLOCK();
        if (i == n)
            break;
#ifdef USE_PTH
        pth_yield(NULL);
#else
        usleep(1000);
#endif
    }
    bench_report_idle(SYS, base, n);
    LOCK();
    released = 1;
    BROADCAST();
    UNLOCK();
    return 0;
}
