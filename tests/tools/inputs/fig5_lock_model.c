/* The call graph of QEMU's coroutine lock file as "QEMU/CPC" (docs/references.md)
   analyses it in figure 5a (before the fix of its throttling bug): every function of the
   file with its calls, bodies reduced to them.  CoroCheck reported six
   missing annotations (the queue's restart helpers and the rwlock) and one
   spurious (qemu_co_queue_run_restart, which only enters coroutines). */
#define coroutine_fn
typedef struct Coroutine Coroutine;
typedef struct CoQueue CoQueue;
void qemu_coroutine_enter(Coroutine *co, void *opaque);
void coroutine_fn qemu_coroutine_yield(void);
Coroutine *coroutine_fn qemu_coroutine_self(void);
Coroutine *next_in(CoQueue *queue);

void qemu_co_queue_init(CoQueue *queue) { (void)queue; }
void coroutine_fn qemu_co_queue_wait(CoQueue *queue)
{
    (void)queue;
    (void)qemu_coroutine_self();
    qemu_coroutine_yield();
}
void coroutine_fn qemu_co_queue_run_restart(Coroutine *co)
{
    qemu_coroutine_enter(co, 0);
}
static int qemu_co_queue_do_restart(CoQueue *queue, int single)
{
    (void)qemu_coroutine_self();
    return next_in(queue) != 0 && single;
}
int qemu_co_queue_next(CoQueue *queue) { return qemu_co_queue_do_restart(queue, 1); }
void qemu_co_queue_restart_all(CoQueue *queue) { qemu_co_queue_do_restart(queue, 0); }
int qemu_co_queue_empty(CoQueue *queue) { return next_in(queue) == 0; }
void qemu_co_mutex_init(CoQueue *m) { qemu_co_queue_init(m); }
void coroutine_fn qemu_co_mutex_lock(CoQueue *m)
{
    (void)qemu_coroutine_self();
    qemu_co_queue_wait(m);
}
void coroutine_fn qemu_co_mutex_unlock(CoQueue *m)
{
    (void)qemu_coroutine_self();
    qemu_co_queue_next(m);
}
void qemu_co_rwlock_init(CoQueue *l) { qemu_co_queue_init(l); }
void qemu_co_rwlock_rdlock(CoQueue *l) { qemu_co_queue_wait(l); }
void qemu_co_rwlock_unlock(CoQueue *l)
{
    if (next_in(l))
        qemu_co_queue_restart_all(l);
    else
        qemu_co_queue_next(l);
}
void qemu_co_rwlock_wrlock(CoQueue *l) { qemu_co_queue_wait(l); }
