/* A function handed over as a native function pointer that reaches code
   which cannot change (a thread's start routine, through the program's own
   start_thread, to pthread_create) is native by that use: inference does
   not make it cooperative, and its call to a coroutine function is the
   error.  The parameter `func`
   of a coroutine_fn function is not annotated by the function's own
   annotation (QEMU's thread_pool_submit_co). */
#include <pthread.h>
#define coroutine_fn
typedef int Work(void *arg);
void coroutine_fn co_yield(void);
static void start_thread(void *(*start)(void *), void *arg)
{
    pthread_t t;
    pthread_create(&t, 0, start, arg);
}
void submit(Work *func, void *arg);

static int step(void) { co_yield(); return 0; }
static void *worker(void *opaque) { (void)opaque; step(); return 0; }
void spawn_worker(void) { start_thread(worker, 0); }

int coroutine_fn submit_co(Work *func, void *arg)
{
    submit(func, arg);
    co_yield();
    return 0;
}
