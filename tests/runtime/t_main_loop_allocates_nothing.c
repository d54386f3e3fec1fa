/* A program that never detaches a thread pays nothing for the thread
   pool: cpc_main_loop running small threads (slab continuations) that
   yield allocates nothing from malloc.  The test counts the allocator's
   calls itself (it defines malloc and its relatives, forwarding to
   glibc's). */
#include "cps_test.h"

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static volatile int counting;
static long calls;

void *malloc(size_t n)
{
    calls += counting;
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
    calls += counting;
    return __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
    calls += counting;
    return __libc_realloc(p, n);
}

void *aligned_alloc(size_t a, size_t n)
{
    calls += counting;
    return __libc_memalign(a, n);
}

int posix_memalign(void **p, size_t a, size_t n)
{
    calls += counting;
    *p = __libc_memalign(a, n);
    return *p != NULL ? 0 : ENOMEM;
}

static int rounds;

CPC_FRAMES_BEGIN
struct spin__frame { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *spin__cps(cpc_continuation *k);

static cpc_continuation *spin__resume(cpc_continuation *k)
{
    CPC_DROP(k, struct spin__frame);
    return spin__cps(k);
}

/* cps void spin(void) { while (++rounds <= 3) cpc_yield(); } */
static cpc_continuation *spin__cps(cpc_continuation *k)
{
    if (++rounds > 3)
        return k;
    k = cpc_reserve(k, sizeof(struct spin__frame));
    CPC_PUSH_RESERVED(k, struct spin__frame)->cpc_fn = spin__resume;
    return cpc_yield__cps(k);
}
CT_DEFINE_SPAWN0(spin)

int main(void)
{
    spin__spawn();
    counting = 1;
    cpc_main_loop();
    counting = 0;
    CT_OUT("rounds %d, allocations during cpc_main_loop: %ld\n", rounds, calls);
    return 0;
}
