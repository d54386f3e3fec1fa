/* bench/qemu/coro_thread.c -- a coroutine backend with one OS thread per
 * coroutine, as QEMU's gthread backend: only one thread runs at a time,
 * and a switch hands a token over with a mutex and a condition variable
 * per coroutine.  No pool (the thread ends with its coroutine). */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include "coro_backend.h"

const char coro_backend_name[] = "thread";
const int coro_backend_has_pool = 0;

enum { CORO_ENTER = 1, CORO_YIELD, CORO_TERMINATE };

struct Coroutine {
    CoroutineEntry *entry;
    void *arg;
    Coroutine *caller;
    pthread_cond_t cond;
    bool runnable;
    int action;                 /* why it was switched to */
    pthread_t thread;
};

static pthread_mutex_t coro_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread Coroutine *coro_current;

void coro_backend_set_pool(unsigned max)
{
    (void)max;
}

static Coroutine *coro_self(void)
{
    if (coro_current == NULL) {
        /* the thread's own "leader" coroutine */
        Coroutine *co = calloc(1, sizeof *co);
        pthread_cond_init(&co->cond, NULL);
        coro_current = co;
    }
    return coro_current;
}

/* Hand the token to `to` and wait for it to come back. */
static int coro_switch(Coroutine *from, Coroutine *to, int action)
{
    int ret;
    pthread_mutex_lock(&coro_lock);
    to->runnable = true;
    to->action = action;
    pthread_cond_signal(&to->cond);
    if (action == CORO_TERMINATE) {
        pthread_mutex_unlock(&coro_lock);
        return action;
    }
    while (!from->runnable)
        pthread_cond_wait(&from->cond, &coro_lock);
    from->runnable = false;
    ret = from->action;
    pthread_mutex_unlock(&coro_lock);
    return ret;
}

static void *coro_thread_main(void *p)
{
    Coroutine *co = p;
    coro_current = co;
    pthread_mutex_lock(&coro_lock);
    while (!co->runnable)
        pthread_cond_wait(&co->cond, &coro_lock);
    co->runnable = false;
    pthread_mutex_unlock(&coro_lock);
    co->entry(co->arg);
    Coroutine *to = co->caller;
    co->caller = NULL;
    coro_switch(co, to, CORO_TERMINATE);
    return NULL;
}

Coroutine *qemu_coroutine_create(CoroutineEntry *entry, void *opaque)
{
    Coroutine *co = calloc(1, sizeof *co);
    pthread_attr_t attr;
    if (co == NULL)
        abort();
    co->entry = entry;
    co->arg = opaque;
    pthread_cond_init(&co->cond, NULL);
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    if (pthread_create(&co->thread, &attr, coro_thread_main, co) != 0) {
        perror("pthread_create");
        abort();
    }
    pthread_attr_destroy(&attr);
    return co;
}

void qemu_coroutine_enter(Coroutine *co)
{
    Coroutine *self = coro_self();
    co->caller = self;
    if (coro_switch(self, co, CORO_ENTER) == CORO_TERMINATE) {
        pthread_join(co->thread, NULL);
        pthread_cond_destroy(&co->cond);
        free(co);
    }
}

void qemu_coroutine_yield(void)
{
    Coroutine *self = coro_self();
    Coroutine *to = self->caller;
    self->caller = NULL;
    coro_switch(self, to, CORO_YIELD);
}
