/*
 * cpc_pool.c -- thread pools: detached mode.
 *
 * A pool is a locked FIFO of continuations served by up to max_threads
 * pthreads, created lazily when a thread arrives and no worker is idle.
 * A worker runs a continuation with the same trampoline as the scheduler
 * (cpc__sched_run), with cpc__tls_pool set: the primitives see that and behave
 * like POSIX (cpc_sleep and cpc_io_wait block, cpc_yield returns at once,
 * the clocks are real).  The continuation leaves the pool when it links elsewhere
 * (cpc_link__cps) or ends.
 *
 * The scheduler's main loop must not return while a thread is detached:
 * the count of detached threads lives under the inbox lock (cpc_sched.c),
 * and re-attaching pushes to the inbox and decrements it in one critical
 * section, then wakes the loop through its eventfd.
 */
#define _GNU_SOURCE
#include "cpc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define POOL_DEFAULT_THREADS 16

struct cpc_sched {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    cpc_continuation *head, *tail;
    long nconts;            /* CPC threads in the pool: queued or running */
    int max_threads;
    int nthreads;           /* workers created */
    int nidle;              /* workers waiting for work */
    bool shutdown;
    pthread_t *workers;
};

cpc_sched *cpc_default_threadpool = NULL;

static void *pool_worker(void *arg)
{
    cpc_sched *s = arg;
    cpc__tls_pool = s;
    cpc__tls_is_sched = false;
    cpc__tls_cv_key = CV_KEY_DETACHED;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (s->head == NULL && !s->shutdown) {
            s->nidle++;
            pthread_cond_wait(&s->cond, &s->lock);
            s->nidle--;
        }
        if (s->head == NULL)
            break;                  /* shut down, and nothing queued */
        cpc_continuation *k = s->head;
        s->head = k->cpc_next;
        if (s->head == NULL)
            s->tail = NULL;
        pthread_mutex_unlock(&s->lock);
        cpc__sched_run(k);
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

cpc_sched *cpc_threadpool_get(int max_threads)
{
    if (max_threads <= 0) {
        errno = EINVAL;
        return NULL;
    }
    cpc_sched *s = calloc(1, sizeof *s);
    pthread_t *w = calloc((size_t)max_threads, sizeof *w);
    if (s == NULL || w == NULL)
        cpc__fatal("out of memory allocating a thread pool");
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    s->max_threads = max_threads;
    s->workers = w;
    return s;
}

int cpc_threadpool_release(cpc_sched *s)
{
    if (s == NULL) {
        errno = EINVAL;
        return -1;
    }
    pthread_mutex_lock(&s->lock);
    if (s->nconts > 0) {
        pthread_mutex_unlock(&s->lock);
        errno = EBUSY;
        return -1;
    }
    s->shutdown = true;
    pthread_cond_broadcast(&s->cond);
    int n = s->nthreads;
    pthread_mutex_unlock(&s->lock);
    if (cpc__tls_pool == s)
        cpc__fatal("cpc_threadpool_release: called from a worker of the pool "
                   "it releases");
    for (int i = 0; i < n; i++)
        pthread_join(s->workers[i], NULL);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    if (s == cpc_default_threadpool)
        cpc_default_threadpool = NULL;
    free(s->workers);
    free(s);
    return 0;
}

void cpc__pool_push(cpc_sched *s, cpc_continuation *k)
{
    k->cpc_next = NULL;
    pthread_mutex_lock(&s->lock);
    if (s->shutdown) {
        pthread_mutex_unlock(&s->lock);
        cpc__fatal("cpc_link: thread pool %p was released", (void *)s);
    }
    if (s->tail != NULL)
        s->tail->cpc_next = k;
    else
        s->head = k;
    s->tail = k;
    s->nconts++;
    if (s->nidle > 0) {
        pthread_cond_signal(&s->cond);
    } else if (s->nthreads < s->max_threads) {
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        /* Continuations keep the C stack shallow; 256 KiB leaves room for
           the blocking native code detached threads exist to call. */
        pthread_attr_setstacksize(&attr, 256 * 1024);
        int rc = pthread_create(&s->workers[s->nthreads], &attr, pool_worker, s);
        pthread_attr_destroy(&attr);
        if (rc == 0)
            s->nthreads++;
        else if (s->nthreads == 0)
            cpc__fatal("cannot create a thread pool worker: %s", strerror(rc));
        /* Otherwise an existing worker will get to it. */
    }
    pthread_mutex_unlock(&s->lock);
}

void cpc__pool_leave(cpc_sched *s)
{
    pthread_mutex_lock(&s->lock);
    s->nconts--;
    pthread_mutex_unlock(&s->lock);
}

void cpc__pool_init_default(void)
{
    if (cpc_default_threadpool == NULL)
        cpc_default_threadpool = cpc_threadpool_get(POOL_DEFAULT_THREADS);
}

void cpc__pool_shutdown_default(void)
{
    if (cpc_default_threadpool != NULL &&
        cpc_threadpool_release(cpc_default_threadpool) < 0)
        fprintf(stderr, "cpc: the default thread pool still holds threads "
                        "when cpc_main_loop returns\n");
}

/* ---- cpc_link --------------------------------------------------------------- */

cpc_continuation *cpc_link__cps(cpc_continuation *k, cpc_sched *s)
{
    cpc_sched *prev = cpc__tls_pool;
    /* The result is known now: store it while we still own k. */
    k = cpc_return(k, &prev, sizeof prev);
    if (s == prev)
        return k;
    cpc__dbg_suspend(k, false);
    if (prev == NULL) {
        /* Scheduler -> pool. */
        cpc__sched_detached_add(1);
        cpc__pool_push(s, k);
    } else if (s == cpc_default_sched) {
        /* Pool -> scheduler. */
        cpc__pool_leave(prev);
        cpc__sched_attach_from_pool(k);
    } else {
        /* Pool -> pool: still detached. */
        cpc__pool_leave(prev);
        cpc__pool_push(s, k);
    }
    return NULL;
}
