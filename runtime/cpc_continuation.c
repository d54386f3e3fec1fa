/*
 * cpc_continuation.c -- allocation of continuations.
 *
 * Sizing.  A continuation is one malloc'd block: the header and the frame
 * buffer.  Requests are rounded so that header + capacity is 8 modulo 16:
 * glibc's chunks are 16-byte multiples with 8 bytes of overhead, so such a
 * request uses its chunk entirely, and the slack goes to the capacity
 * instead of being lost.  A thread spawned with a 16-byte frame gets a
 * 40-byte request (48-byte chunk, 24 bytes of capacity): once the frame is
 * popped, the 8-byte wait record of a plain cpc_wait fits without growing,
 * so an idle thread costs 48 bytes including the allocator's overhead.
 *
 * Growth is multiplicative (at least doubling), so a deep recursion copies
 * O(n) bytes in total.  The old buffer is copied up to `length` only: the
 * bytes above the top frame are dead at a push or a return.
 *
 * The cache.  Threads are short-lived in spawn-heavy programs, so freed
 * buffers are kept on free lists, one per size class (16-byte steps up to
 * CACHE_MAX_TOTAL), bounded to CACHE_CLASS_BYTES bytes per class; misses
 * and overflow go to malloc/free.  As in the segment cache of one-shot
 * continuations (Bruggeman et al.), a continuation that ends is reused by
 * the next spawn of the same size without touching the allocator.  The
 * cache belongs to the scheduler thread and is used without locking; other
 * OS threads (pool workers, foreign spawners) call malloc and free
 * directly, which is always correct since every buffer comes from malloc.
 * Compile with -DCPC_NO_CACHE to measure without it.
 */
#include "cpc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#define CACHE_MAX_TOTAL   1032   /* largest cached block (8 mod 16) */
#define CACHE_CLASSES     ((CACHE_MAX_TOTAL - 24) / 16 + 1)
#define CACHE_CLASS_BYTES (256 * 1024)

/* Round a block size up to the next value that is 8 modulo 16 (>= 24). */
static size_t cont_round_total(size_t total)
{
    if (total < 24)
        total = 24;
    return ((total + 8 + 15) & ~(size_t)15) - 8;
}

#ifndef CPC_NO_CACHE
struct cont_class {
    cpc_continuation *head;      /* linked through cpc_next */
    size_t bytes;                /* cached bytes (a byte bound: no division
                                    on the free path) */
};
static struct cont_class cont_cache[CACHE_CLASSES];

static inline struct cont_class *cont_class_of(size_t total)
{
    if (total > CACHE_MAX_TOTAL)
        return NULL;
    return &cont_cache[(total - 24) / 16];
}
#endif

CPC_NORETURN static void cont_oom(size_t total)
{
    cpc_fatal("out of memory allocating a continuation of %zu bytes", total);
}

/* A block of exactly `total` bytes (already rounded). */
static cpc_continuation *cont_alloc(size_t total)
{
    cpc_continuation *k;
#ifndef CPC_NO_CACHE
    if (CPC_LIKELY(cpc_tls_is_sched)) {
        struct cont_class *cl = cont_class_of(total);
        if (cl != NULL && cl->head != NULL) {
            k = cl->head;
            cl->head = k->cpc_next;
            cl->bytes -= total;
            return k;
        }
    }
#endif
    k = malloc(total);
    if (CPC_UNLIKELY(k == NULL))
        cont_oom(total);
    return k;
}

static void cont_release(cpc_continuation *k)
{
#ifndef CPC_NO_CACHE
    if (CPC_LIKELY(cpc_tls_is_sched)) {
        size_t total = CPC_HEADER_SIZE + k->size;
        struct cont_class *cl = cont_class_of(total);
        if (cl != NULL && cl->bytes + total <= CACHE_CLASS_BYTES) {
            k->cpc_next = cl->head;
            cl->head = k;
            cl->bytes += total;
            return;
        }
    }
#endif
    free(k);
}

void cont_cache_flush(void)
{
#ifndef CPC_NO_CACHE
    for (size_t i = 0; i < CACHE_CLASSES; i++) {
        cpc_continuation *k = cont_cache[i].head;
        while (k != NULL) {
            cpc_continuation *next = k->cpc_next;
            free(k);
            k = next;
        }
        cont_cache[i].head = NULL;
        cont_cache[i].bytes = 0;
    }
#endif
}

/* Capacity for `size` bytes of frames: the block size, rounded. */
static size_t cont_total_for(size_t size)
{
    if (size > UINT32_MAX - CPC_HEADER_SIZE - 32)
        cpc_fatal("continuation of %zu bytes is too large (limit 4 GiB)",
                  size);
    return cont_round_total(CPC_HEADER_SIZE + size);
}

cpc_continuation *cpc_continuation_new(size_t size)
{
    size_t total = cont_total_for(size);
    cpc_continuation *k = cont_alloc(total);
    k->cpc_next = NULL;
    k->length = 0;
    k->size = (uint32_t)(total - CPC_HEADER_SIZE);
    dbg_init(k);
    return k;
}

cpc_continuation *cpc_continuation_grow(cpc_continuation *k, size_t need)
{
    size_t want = (size_t)k->length + need;
    size_t size = (size_t)k->size * 2;
    if (size < want)
        size = want;
    if (size < 32)
        size = 32;
    if (size > UINT32_MAX - CPC_HEADER_SIZE - 32) {
        /* Doubling overshot the limit: settle for what is needed. */
        size = want;
    }
    size_t total = cont_total_for(size);
    cpc_continuation *n = cont_alloc(total);
    n->cpc_next = k->cpc_next;
    n->length = k->length;
    n->size = (uint32_t)(total - CPC_HEADER_SIZE);
    memcpy(n->c, k->c, k->length);
    dbg_moved(k, n);
    if (!dbg_free(k))
        cont_release(k);
    return n;
}

void cpc_continuation_free(cpc_continuation *k)
{
    if (k == NULL)
        return;
    if (dbg_free(k))
        return;
    cont_release(k);
}
