/*
 * cpc_pool.c -- thread pools: detached mode.
 *
 * A pool is a locked FIFO of continuations served by up to max_threads
 * pthreads, created lazily when a thread arrives and no worker is idle.
 * The default pool (cpc_default_threadpool) is a static object: a program
 * that never detaches a thread pays nothing for it.
 * A worker runs a continuation with the same trampoline as the scheduler
 * (cpc__sched_run), with cpc__tls_pool set: the primitives see that and behave
 * like POSIX (cpc_sleep and cpc_io_wait block, cpc_yield returns at once,
 * the clocks are real).  The continuation leaves the pool when it links elsewhere
 * (cpc_link__cps) or ends.
 *
 * The schedulers' loops must not return while a thread is detached: a
 * detached thread counts in cpc__world_busy (cpc_internal.h), and
 * re-attaching pushes to the home scheduler's inbox (counting that
 * scheduler busy if it was idle) before the thread stops counting.
 *
 * Home.  A detached thread remembers the scheduler it came from, its
 * home: cpc_link(cpc_default_sched) takes it back there, and it spawns
 * there.  While it waits in a pool's queue the home is kept in the bytes
 * above its top frame (after cpc_link's result, which is the pointer at
 * c[length]); the worker running it keeps it in cpc__tls_home.
 */
#define _GNU_SOURCE
#include "cpc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define POOL_DEFAULT_THREADS 16

struct cpc__pool {
    uint32_t kind;          /* CPC__KIND_POOL */
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

/* The default pool is a static object, ready before anything runs and
   costing nothing until a thread detaches: its first worker is created
   then.  Released (by the program, or when the last running scheduler
   returns), it is reset for the next run instead of freed. */
static pthread_t pool_default_workers[POOL_DEFAULT_THREADS];
static struct cpc__pool pool_default = {
    .kind = CPC__KIND_POOL,
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .cond = PTHREAD_COND_INITIALIZER,
    .max_threads = POOL_DEFAULT_THREADS,
    .workers = pool_default_workers,
};
cpc_sched *cpc_default_threadpool = (cpc_sched *)(void *)&pool_default;

/* Where a queued thread keeps its home: above cpc_link's result. */
#define POOL_HOME_OFFSET sizeof(cpc_sched *)
#define POOL_RESERVE (2 * sizeof(cpc_sched *))

static void pool_set_home(cpc_continuation *k, struct cpc_sched *home)
{
    memcpy(k->c + k->length + POOL_HOME_OFFSET, &home, sizeof home);
}

static struct cpc_sched *pool_home(cpc_continuation *k)
{
    struct cpc_sched *home;
    memcpy(&home, k->c + k->length + POOL_HOME_OFFSET, sizeof home);
    return home;
}

static void *pool_worker(void *arg)
{
    struct cpc__pool *s = arg;
    cpc__tls_pool = s;
    cpc__tls_sched = NULL;
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
        cpc__tls_home = pool_home(k);
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
    struct cpc__pool *s = calloc(1, sizeof *s);
    pthread_t *w = calloc((size_t)max_threads, sizeof *w);
    if (s == NULL || w == NULL) {
        free(s);
        free(w);
        errno = ENOMEM;
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    s->kind = CPC__KIND_POOL;
    s->max_threads = max_threads;
    s->workers = w;
    return (cpc_sched *)(void *)s;
}

int cpc_threadpool_release(cpc_sched *h)
{
    if (h == NULL || !cpc__is_pool(h)) {
        errno = EINVAL;
        return -1;
    }
    struct cpc__pool *s = (struct cpc__pool *)(void *)h;
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
    if (s == &pool_default) {
        /* Static: back to its initial state, for the next run. */
        pthread_mutex_lock(&s->lock);
        s->nthreads = 0;
        s->shutdown = false;
        pthread_mutex_unlock(&s->lock);
        return 0;
    }
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    s->kind = 0;
    free(s->workers);
    free(s);
    return 0;
}

void cpc__pool_push(struct cpc__pool *s, cpc_continuation *k,
                    struct cpc_sched *home)
{
    pool_set_home(k, home);
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
            cpc__exhausted("cannot create a thread pool worker: %s",
                           strerror(rc));
        /* Otherwise an existing worker will get to it. */
    }
    pthread_mutex_unlock(&s->lock);
}

void cpc__pool_leave(struct cpc__pool *s)
{
    pthread_mutex_lock(&s->lock);
    s->nconts--;
    pthread_mutex_unlock(&s->lock);
}

void cpc__pool_shutdown_default(void)
{
    if (cpc_threadpool_release(cpc_default_threadpool) < 0)
        fprintf(stderr, "cpc: the default thread pool still holds threads "
                        "when cpc_main_loop returns\n");
}

/* ---- cpc_link --------------------------------------------------------------- */

/* Where cpc_link(s) goes: s is a pool, a cooperative scheduler, or
   cpc_default_sched (NULL), the thread's home scheduler. */
cpc_continuation *cpc_link__cps(cpc_continuation *k, cpc_sched *s)
{
    struct cpc__pool *prev = cpc__tls_pool;
    struct cpc_sched *here = prev != NULL ? cpc__tls_home : cpc__tls_sched;
    cpc_sched *result = (cpc_sched *)(void *)prev;
    /* The result is known now: store it while we still own k, with room
       for the home above it. */
    k = cpc_reserve(k, POOL_RESERVE);
    k = cpc_return(k, &result, sizeof result);
    if (s == NULL) {
        if (prev == NULL)
            return k;               /* attached already, at home */
        s = here;                   /* back home */
    } else if (cpc__is_pool(s)) {
        if ((struct cpc__pool *)(void *)s == prev)
            return k;
    } else {
        if (s->kind != CPC__KIND_SCHED)
            cpc__fatal("cpc_link: %p is neither a scheduler nor a thread pool "
                       "(freed?)", (void *)s);
        if (prev == NULL && s == cpc__tls_sched)
            return k;
    }
    if (here == NULL)
        cpc__fatal("cpc_link called by a thread with no scheduler");
    cpc__dbg_suspend(k, false);
    if (cpc__is_pool(s)) {
        struct cpc__pool *to = (struct cpc__pool *)(void *)s;
        if (prev == NULL)           /* scheduler -> pool */
            cpc__world_busy_add(1);
        else                        /* pool -> pool: still detached */
            cpc__pool_leave(prev);
        cpc__pool_push(to, k, here);
    } else if (prev != NULL) {      /* pool -> scheduler */
        cpc__pool_leave(prev);
        cpc__sched_attach_from_pool(s, k);
    } else {                        /* scheduler -> scheduler */
        cpc__sched_inbox_push(s, k);
    }
    return NULL;
}
