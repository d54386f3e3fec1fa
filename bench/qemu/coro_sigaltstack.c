/* bench/qemu/coro_sigaltstack.c -- a coroutine backend on sigaltstack,
 * built like QEMU's coroutine-sigaltstack: a new coroutine's stack is
 * entered by delivering a signal on it as the alternate signal stack; the
 * handler saves a jump buffer there and returns, and jumping back to that
 * buffer (outside the signal) starts the coroutine.  Switches are
 * sigsetjmp/siglongjmp; ended coroutines go to a pool with their stacks. */
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include "coro_backend.h"
#include "coro_stack.h"

const char coro_backend_name[] = "sigaltstack";

static __thread sigjmp_buf *tr_reenter;
static __thread volatile sig_atomic_t tr_called;
static __thread Coroutine *tr_co;
static __thread sigjmp_buf *tr_creator;

static void coro_bootstrap(void)
{
    Coroutine *co = tr_co;
    if (sigsetjmp(co->env, 0) == 0)
        siglongjmp(*tr_creator, 1);
    coro_loop(co);
}

static void tr_handler(int sig)
{
    static __thread sigjmp_buf reenter;
    (void)sig;
    tr_reenter = &reenter;
    if (sigsetjmp(reenter, 0) == 0) {
        tr_called = 1;
        return;
    }
    coro_bootstrap();
}

static Coroutine *coro_new(void)
{
    Coroutine *co = calloc(1, sizeof *co);
    struct sigaction sa, osa;
    stack_t ss, oss;
    sigset_t sigs, osigs;
    sigjmp_buf creator;
    if (co == NULL)
        abort();
    co->stack_size = CORO_STACK_SIZE;
    co->stack = coro_stack_alloc(co->stack_size);

    sigfillset(&sigs);
    pthread_sigmask(SIG_SETMASK, &sigs, &osigs);
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = tr_handler;
    sigfillset(&sa.sa_mask);
    sa.sa_flags = SA_ONSTACK;
    if (sigaction(SIGUSR2, &sa, &osa) != 0)
        abort();
    ss.ss_sp = coro_stack_base(co);
    ss.ss_size = co->stack_size;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, &oss) < 0)
        abort();

    tr_called = 0;
    pthread_kill(pthread_self(), SIGUSR2);
    sigfillset(&sigs);
    sigdelset(&sigs, SIGUSR2);
    while (!tr_called)
        sigsuspend(&sigs);

    /* the alternate stack is ours again; restore the old one */
    sigaltstack(NULL, &ss);
    ss.ss_flags = SS_DISABLE;
    sigaltstack(&ss, NULL);
    if (!(oss.ss_flags & SS_DISABLE))
        sigaltstack(&oss, NULL);
    sigaction(SIGUSR2, &osa, NULL);
    pthread_sigmask(SIG_SETMASK, &osigs, NULL);

    tr_co = co;
    tr_creator = &creator;
    if (sigsetjmp(creator, 0) == 0)
        siglongjmp(*tr_reenter, 1);
    return co;
}
