/* bench/qemu/coro_backend.h -- the part of QEMU's coroutine API that the
 * benchmarks use, for the stack-based backends written here for
 * comparison (as QEMU's backends: coro_ucontext.c, coro_sigaltstack.c,
 * coro_thread.c).  coroutine_fn means nothing to them. */
#ifndef CORO_BACKEND_H
#define CORO_BACKEND_H

#define coroutine_fn

typedef struct Coroutine Coroutine;
typedef void CoroutineEntry(void *opaque);

Coroutine *qemu_coroutine_create(CoroutineEntry *entry, void *opaque);
void qemu_coroutine_enter(Coroutine *co);
void qemu_coroutine_yield(void);

/* The backend's name; whether it has a pool; pool size (0: off). */
extern const char coro_backend_name[];
extern const int coro_backend_has_pool;
void coro_backend_set_pool(unsigned max);

#endif
