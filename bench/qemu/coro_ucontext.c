/* bench/qemu/coro_ucontext.c -- a coroutine backend on ucontext, built
 * like QEMU's coroutine-ucontext: makecontext/swapcontext only to start a
 * new coroutine on its 1 MiB stack, sigsetjmp/siglongjmp for every switch
 * after that; ended coroutines go to a pool with their stacks. */
#include <stdint.h>
#include <ucontext.h>
#include "coro_backend.h"
#include "coro_stack.h"

const char coro_backend_name[] = "ucontext";

/* makecontext passes ints: the pointer in two halves. */
static void coro_start(int lo, int hi)
{
    Coroutine *co = (Coroutine *)(((uintptr_t)(unsigned)hi << 32) | (unsigned)lo);
    sigjmp_buf *creator = (sigjmp_buf *)co->arg;
    if (sigsetjmp(co->env, 0) == 0)
        siglongjmp(*creator, 1);        /* set up: back to coro_new */
    coro_loop(co);
}

static Coroutine *coro_new(void)
{
    Coroutine *co = calloc(1, sizeof *co);
    ucontext_t here, uc;
    sigjmp_buf creator;
    if (co == NULL)
        abort();
    co->stack_size = CORO_STACK_SIZE;
    co->stack = coro_stack_alloc(co->stack_size);
    if (getcontext(&uc) != 0)
        abort();
    uc.uc_link = &here;
    uc.uc_stack.ss_sp = coro_stack_base(co);
    uc.uc_stack.ss_size = co->stack_size;
    uc.uc_stack.ss_flags = 0;
    co->arg = &creator;
    uintptr_t p = (uintptr_t)co;
    makecontext(&uc, (void (*)(void))coro_start, 2, (int)(uint32_t)p, (int)(uint32_t)(p >> 32));
    if (sigsetjmp(creator, 0) == 0)
        swapcontext(&here, &uc);
    return co;
}
