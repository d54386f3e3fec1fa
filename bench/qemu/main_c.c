/* bench/qemu/main_c.c -- table 2 on one of the stack-based backends
 * (linked with coro_ucontext.o, coro_sigaltstack.o or coro_thread.o). */
#include "coro_backend.h"

#define BACKEND coro_backend_name
#define POOL_OK coro_backend_has_pool

static void set_pool(int on)
{
    coro_backend_set_pool(on ? 64 : 0);    /* QEMU's pool size */
}

#include "cases.h"

int main(int argc, char **argv)
{
    return bench_main(argc, argv);
}
