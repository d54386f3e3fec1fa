/* bench/qemu/coro_stack.h -- what the stack-switching backends share:
 * stacks as QEMU allocates them (1 MiB, mmap'd, a guard page below), a
 * pool of ended coroutines (QEMU keeps 64 by default), and switching with
 * sigsetjmp/siglongjmp without saving the signal mask, as QEMU does once
 * a coroutine has started. */
#ifndef CORO_STACK_H
#define CORO_STACK_H

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define CORO_STACK_SIZE (1 << 20)

enum { CORO_ENTER = 1, CORO_YIELD, CORO_TERMINATE };

struct Coroutine {
    CoroutineEntry *entry;
    void *arg;
    Coroutine *caller;
    sigjmp_buf env;
    void *stack;                /* the guard page's address */
    size_t stack_size;
    Coroutine *pool_next;
};

static void *coro_stack_alloc(size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, size + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        abort();
    }
    if (mprotect(p, page, PROT_NONE) != 0) {
        perror("mprotect");
        abort();
    }
    return p;
}

static void coro_stack_free(void *p, size_t size)
{
    munmap(p, size + (size_t)sysconf(_SC_PAGESIZE));
}

/* The stack's usable area. */
static inline char *coro_stack_base(Coroutine *co)
{
    return (char *)co->stack + sysconf(_SC_PAGESIZE);
}

static __thread Coroutine coro_leader;
static __thread Coroutine *coro_current;
static __thread Coroutine *coro_pool;
static __thread unsigned coro_pool_len;
static unsigned coro_pool_max = 64;

static inline Coroutine *coro_self(void)
{
    return coro_current != NULL ? coro_current : &coro_leader;
}

static inline int coro_switch(Coroutine *from, Coroutine *to, int action)
{
    int ret;
    coro_current = to;
    ret = sigsetjmp(from->env, 0);
    if (ret == 0)
        siglongjmp(to->env, action);
    return ret;
}

/* An ended coroutine: to the pool (it keeps its stack and its loop), or
   freed. */
static void coro_delete(Coroutine *co)
{
    if (coro_pool_len < coro_pool_max) {
        co->pool_next = coro_pool;
        coro_pool = co;
        coro_pool_len++;
        return;
    }
    coro_stack_free(co->stack, co->stack_size);
    free(co);
}

static Coroutine *coro_pool_take(void)
{
    Coroutine *co = coro_pool;
    if (co != NULL) {
        coro_pool = co->pool_next;
        coro_pool_len--;
    }
    return co;
}

void coro_backend_set_pool(unsigned max)
{
    coro_pool_max = max;
    while (coro_pool_len > coro_pool_max) {
        Coroutine *co = coro_pool_take();
        coro_stack_free(co->stack, co->stack_size);
        free(co);
    }
}

const int coro_backend_has_pool = 1;

static Coroutine *coro_new(void);

Coroutine *qemu_coroutine_create(CoroutineEntry *entry, void *opaque)
{
    Coroutine *co = coro_pool_take();
    if (co == NULL)
        co = coro_new();
    co->entry = entry;
    co->arg = opaque;
    co->caller = NULL;
    return co;
}

void qemu_coroutine_enter(Coroutine *co)
{
    Coroutine *self = coro_self();
    if (co->caller != NULL) {
        fprintf(stderr, "coroutine re-entered recursively\n");
        abort();
    }
    co->caller = self;
    if (coro_switch(self, co, CORO_ENTER) == CORO_TERMINATE)
        coro_delete(co);
}

void qemu_coroutine_yield(void)
{
    Coroutine *self = coro_self();
    Coroutine *to = self->caller;
    self->caller = NULL;
    coro_switch(self, to, CORO_YIELD);
}

/* Runs on the coroutine's stack for its whole life (and reuses). */
static void coro_loop(Coroutine *co)
{
    for (;;) {
        co->entry(co->arg);
        Coroutine *to = co->caller;
        co->caller = NULL;
        coro_switch(co, to, CORO_TERMINATE);
    }
}

#endif
