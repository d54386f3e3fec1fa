/*
 * cpc_continuation.c -- allocation of continuations.
 *
 * Small continuations: slabs.  A thread spawned with a small frame --
 * the common case, and what an idle thread keeps -- is a continuation of
 * at most 64 bytes (16-byte header, capacity 16, 32 or 48).  Those come
 * from slabs: 64 KiB blocks, aligned on their size, carved from 4 MiB
 * anonymous mappings, each holding slots of one size (32, 48 or 64
 * bytes) and, in its first 64 bytes, its own header (free list, bump
 * pointer for never-used slots, live count, list links).  A slot has no
 * allocator header at all: a thread spawned with a 16-byte frame costs 32
 * bytes (the spawn frame's room is then reused by the 8-byte wait record
 * of a plain cpc_wait), where glibc would take a 48-byte chunk.  The slab
 * of a slot is found by masking its address.  Allocation takes from the
 * class's current slab (free list, then bump pointer), then from a slab
 * with free slots (partial list), then a cached empty slab, then a new
 * one.  Live counts per slab let memory go back: a slab whose last slot
 * is freed goes to a bounded cache of empty slabs (SLAB_EMPTY_MAX), beyond
 * which it is unmapped; the end of a scheduler's run unmaps every empty
 * slab and the unused rest of the mapping.
 *
 * Heaps.  Slabs and the cache below make up a heap (struct
 * cpc__cont_heap), and every scheduler has its own, used by the OS thread
 * driving it without locks (cpc__tls_heap): the default scheduler's is a
 * static object, another's is allocated with it and, when the scheduler
 * is freed, kept for the next one (threads that migrated away may still
 * live in its slabs).  Other OS threads (pool workers, foreign spawners)
 * allocate with malloc.  A slab records its heap: a slot freed by another
 * OS thread (a thread that migrated, or ended in a pool) is pushed on that
 * heap's lock-free list, which its scheduler takes back.  Slab and malloc'd continuations are told
 * apart by their capacity: a slot's is a multiple of 16, a malloc'd
 * block's is 8 modulo 16 (see sizing).  The debug build (its header is
 * larger, and it wants every buffer from malloc for valgrind and the
 * quarantine) and the CPC_NO_CACHE build use malloc only.
 *
 * Sizing of malloc'd continuations.  A continuation is one malloc'd
 * block: the header and the frame buffer.  Requests are rounded so that
 * header + capacity is 8 modulo 16: glibc's chunks are 16-byte multiples
 * with 8 bytes of overhead, so such a request uses its chunk entirely, and
 * the slack goes to the capacity instead of being lost.
 *
 * Growth is multiplicative (at least doubling), so a deep recursion copies
 * O(n) bytes in total.  The old buffer is copied up to `length` only: the
 * bytes above the top frame are dead at a push or a return.
 *
 * The cache.  Freed malloc'd buffers are kept on free lists, one per size
 * class (16-byte steps up to CACHE_MAX_TOTAL), bounded to
 * CACHE_CLASS_BYTES bytes per class; misses and overflow go to
 * malloc/free.  As in the segment cache of one-shot continuations
 * (Bruggeman et al.), a continuation that ends is reused by the next
 * spawn of the same size without touching the allocator; the slabs play
 * that part for small continuations.  The cache is part of a scheduler's
 * heap, used without locking by its thread (a malloc'd block may go back
 * to any heap); other OS threads call malloc and free directly.  Compile
 * with -DCPC_NO_CACHE to measure without either.
 */
#define _GNU_SOURCE
#include "cpc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define CACHE_MAX_TOTAL   1032   /* largest cached block (8 mod 16) */
#define CACHE_CLASSES     ((CACHE_MAX_TOTAL - 24) / 16 + 1)
#define CACHE_CLASS_BYTES (256 * 1024)

CPC_NORETURN static void cont_oom(size_t total)
{
    cpc__exhausted("out of memory allocating a continuation of %zu bytes",
                   total);
}

/* ---- slabs ------------------------------------------------------------------ */

#ifdef CPC_SLABS
/* (SLAB_SIZE and struct slab: cpc_internal.h, for the loop's inline free.) */
#define SLAB_REGION    (64 * SLAB_SIZE)      /* mapped at a time */
#define SLAB_HDR       64                    /* first slot offset */
#define SLAB_CLASSES   3                     /* slots of 32, 48, 64 bytes */
#define SLAB_MAX_TOTAL (16 * (SLAB_CLASSES + 1))
#define SLAB_EMPTY_MAX 4                     /* empty slabs kept */

_Static_assert(sizeof(struct slab) <= SLAB_HDR, "slab header too large");

/* A class's current slab before its first, and after a run's end: no
   free slot, no room, so the fast paths need no NULL test. */
static struct slab slab_none;
#endif /* CPC_SLABS */

#ifndef CPC_NO_CACHE
struct cont_class {
    cpc_continuation *head;      /* linked through cpc_next */
    size_t bytes;                /* cached bytes (a byte bound: no division
                                    on the free path) */
};
#endif

/* A scheduler's continuations: slabs and the cache of malloc'd blocks.
   Whole cache lines (cpc__cont_heap_new): its scheduler's thread writes
   it at every allocation, and no other thread's data shares its lines. */
struct cpc__cont_heap {
#ifdef CPC_SLABS
    _Alignas(CPC__CACHE_LINE)
    struct slab *slab_cur[SLAB_CLASSES];       /* allocating from */
    struct slab *slab_partial[SLAB_CLASSES];   /* free slots, not current */
    struct slab *slab_empty;                   /* cached empty slabs */
    size_t slab_nempty;
    char *slab_region, *slab_region_end;       /* not yet carved */
    _Atomic(cpc_continuation *) slab_remote;   /* freed on other threads */
#else
    _Alignas(CPC__CACHE_LINE) char line_start[0];
#endif
#ifndef CPC_NO_CACHE
    struct cont_class cont_cache[CACHE_CLASSES];
#endif
    struct cpc__cont_heap *next_retired;       /* heaps_retired */
};

#ifdef CPC_SLABS
#define HEAP_INIT { .slab_cur = { &slab_none, &slab_none, &slab_none } }
_Static_assert(SLAB_CLASSES == 3, "HEAP_INIT's initialiser");
#else
#define HEAP_INIT { .next_retired = NULL }
#endif

/* The default scheduler's. */
struct cpc__cont_heap cpc__cont_heap_default = HEAP_INIT;

/* The heap of the scheduler this OS thread drives (the main thread's,
   before it runs one, is the default's); NULL elsewhere. */
_Thread_local struct cpc__cont_heap *cpc__tls_heap;

/* The program's main thread is the default scheduler's thread until
   cpc_main_loop says otherwise (as in cpc_sched.c): here too, for a
   program that allocates continuations without linking the scheduler. */
__attribute__((constructor)) static void cont_init_main_thread(void)
{
    cpc__tls_heap = &cpc__cont_heap_default;
}

#ifdef CPC_SLABS
#define slab_of cpc__slab_of
#define cont_is_slot cpc__cont_is_slot

static struct slab *slab_new(struct cpc__cont_heap *h, unsigned cls)
{
    struct slab *s;
    if (h->slab_empty != NULL) {
        s = h->slab_empty;
        h->slab_empty = s->next;
        h->slab_nempty--;
    } else {
        if (h->slab_region == h->slab_region_end) {
            size_t len = SLAB_REGION + SLAB_SIZE;
            char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED)
                cont_oom(SLAB_SIZE);
            char *a = (char *)(((uintptr_t)p + SLAB_SIZE - 1) &
                               ~(uintptr_t)(SLAB_SIZE - 1));
            if (a > p)
                munmap(p, (size_t)(a - p));
            if (a + SLAB_REGION < p + len)
                munmap(a + SLAB_REGION, (size_t)(p + len - (a + SLAB_REGION)));
            h->slab_region = a;
            h->slab_region_end = a + SLAB_REGION;
        }
        s = (struct slab *)(void *)h->slab_region;
        h->slab_region += SLAB_SIZE;
    }
    unsigned slot = 16 * (cls + 2);
    s->free = NULL;
    s->slot = (uint16_t)slot;
    s->bump = (char *)s + SLAB_HDR;
    s->end = (char *)s + SLAB_HDR + (SLAB_SIZE - SLAB_HDR) / slot * slot;
    s->live = 0;
    s->listed = true;
    s->next = s->prev = NULL;
    s->heap = h;
    return s;
}

static void slab_list_remove(struct slab **head, struct slab *s)
{
    if (s->prev != NULL)
        s->prev->next = s->next;
    else
        *head = s->next;
    if (s->next != NULL)
        s->next->prev = s->prev;
    s->next = s->prev = NULL;
}

/* s has free slots again: it joins its class's partial list. */
static void slab_partial_push(struct cpc__cont_heap *h, unsigned cls,
                              struct slab *s)
{
    s->listed = true;
    s->prev = NULL;
    s->next = h->slab_partial[cls];
    if (s->next != NULL)
        s->next->prev = s;
    h->slab_partial[cls] = s;
}

/* An empty slab leaves service: cached, or unmapped. */
static void slab_release(struct cpc__cont_heap *h, struct slab *s)
{
    if (h->slab_nempty < SLAB_EMPTY_MAX) {
        s->next = h->slab_empty;
        h->slab_empty = s;
        h->slab_nempty++;
    } else {
        munmap(s, SLAB_SIZE);
    }
}

/* Slots a slab holds. */
static uint32_t slab_capacity(const struct slab *s)
{
    return (uint32_t)((s->end - ((char *)s + SLAB_HDR)) / s->slot);
}

/* s is full: it leaves every list until a slot is freed. */
static void slab_unlist(struct slab *s)
{
    s->listed = false;
    s->live = 1;
}

void cpc__slab_free_slow(struct slab *s)
{
    struct cpc__cont_heap *h = s->heap;
    unsigned cls = s->slot / 16 - 2;
    if (!s->listed) {                   /* it was full */
        s->live = slab_capacity(s) - 1;
        slab_partial_push(h, cls, s);
    }
    if (s->live == 0 && s != h->slab_cur[cls]) {
        slab_list_remove(&h->slab_partial[cls], s);
        slab_release(h, s);
    }
}

#define slab_free cpc__slab_free

/* Take back the slots other OS threads freed. */
static void slab_drain_remote(struct cpc__cont_heap *h)
{
    if (atomic_load_explicit(&h->slab_remote, memory_order_relaxed) == NULL)
        return;
    cpc_continuation *k =
        atomic_exchange_explicit(&h->slab_remote, NULL, memory_order_acquire);
    while (k != NULL) {
        cpc_continuation *next = k->cpc_next;
        slab_free(slab_of(k), k);
        k = next;
    }
}

/* Free slot k of s on an OS thread that does not own s's heap. */
static CPC_COLD void slab_free_remote(struct slab *s, cpc_continuation *k)
{
    struct cpc__cont_heap *h = s->heap;
    cpc_continuation *head =
        atomic_load_explicit(&h->slab_remote, memory_order_relaxed);
    do
        k->cpc_next = head;
    while (!atomic_compare_exchange_weak_explicit(
               &h->slab_remote, &head, k, memory_order_release,
               memory_order_relaxed));
}

CPC_COLD static void *slab_alloc_slow(struct cpc__cont_heap *h, unsigned cls)
{
    struct slab *s = h->slab_cur[cls];
    slab_drain_remote(h);
    if (s->free != NULL || s->bump < s->end)
        goto take;
    if (s != &slab_none)
        slab_unlist(s);
    s = h->slab_partial[cls];
    if (s != NULL)
        slab_list_remove(&h->slab_partial[cls], s);
    else
        s = slab_new(h, cls);
    h->slab_cur[cls] = s;
take:;
    void *p = s->free;
    if (p != NULL) {
        s->free = *(void **)p;
    } else {
        p = s->bump;
        s->bump += s->slot;
    }
    s->live++;
    return p;
}

/* A freed slot of s, or NULL. */
static inline void *slab_take_freed(struct slab *s)
{
    void *p = s->free;
    if (CPC_LIKELY(p != NULL)) {
        s->free = *(void **)p;
        s->live++;
    }
    return p;
}

static inline void *slab_alloc(struct cpc__cont_heap *h, unsigned cls)
{
    struct slab *s = h->slab_cur[cls];
    void *p = slab_take_freed(s);
    if (CPC_LIKELY(p != NULL))
        return p;
    if (s->bump < s->end) {
        p = s->bump;
        s->bump += s->slot;
        s->live++;
        return p;
    }
    return slab_alloc_slow(h, cls);
}

static void slab_flush(struct cpc__cont_heap *h)
{
    slab_drain_remote(h);
    for (unsigned cls = 0; cls < SLAB_CLASSES; cls++) {
        struct slab *s = h->slab_partial[cls];
        while (s != NULL) {
            struct slab *next = s->next;
            if (s->live == 0) {
                slab_list_remove(&h->slab_partial[cls], s);
                munmap(s, SLAB_SIZE);
            }
            s = next;
        }
        s = h->slab_cur[cls];
        if (s == &slab_none)
            continue;
        h->slab_cur[cls] = &slab_none;
        if (s->live == 0) {
            munmap(s, SLAB_SIZE);
        } else {
            /* Still holds threads (stranded waiters, threads that moved
               to another scheduler): it joins the partial list, so the
               next allocation does not assume it is full. */
            if (s->free != NULL || s->bump < s->end)
                slab_partial_push(h, cls, s);
            else
                slab_unlist(s);
        }
    }
    while (h->slab_empty != NULL) {
        struct slab *next = h->slab_empty->next;
        munmap(h->slab_empty, SLAB_SIZE);
        h->slab_empty = next;
    }
    h->slab_nempty = 0;
    if (h->slab_region != h->slab_region_end)
        munmap(h->slab_region, (size_t)(h->slab_region_end - h->slab_region));
    h->slab_region = h->slab_region_end = NULL;
}
#endif /* CPC_SLABS */

/* ---- malloc'd continuations and their cache ---------------------------------- */

/* Round a block size up to the next value that is 8 modulo 16 (>= 24). */
static size_t cont_round_total(size_t total)
{
    if (total < 24)
        total = 24;
    return ((total + 8 + 15) & ~(size_t)15) - 8;
}

#ifndef CPC_NO_CACHE
static inline struct cont_class *cont_class_of(struct cpc__cont_heap *h,
                                               size_t total)
{
    if (total > CACHE_MAX_TOTAL)
        return NULL;
    return &h->cont_cache[(total - 24) / 16];
}
#endif

/* A malloc'd block of exactly `total` bytes (already rounded), from h's
   cache when h is not NULL. */
static cpc_continuation *cont_malloc(struct cpc__cont_heap *h, size_t total)
{
    cpc_continuation *k;
#ifndef CPC_NO_CACHE
    if (CPC_LIKELY(h != NULL)) {
        struct cont_class *cl = cont_class_of(h, total);
        if (cl != NULL && cl->head != NULL) {
            k = cl->head;
            cl->head = k->cpc_next;
            cl->bytes -= total;
            return k;
        }
    }
#else
    (void)h;
#endif
    k = malloc(total);
    if (CPC_UNLIKELY(k == NULL))
        cont_oom(total);
    return k;
}

/* Free k on the OS thread whose heap is h (NULL: none, a pool worker or
   a foreign thread). */
static inline __attribute__((always_inline)) void
cont_release_in(cpc_continuation *k, struct cpc__cont_heap *h)
{
    (void)h;                    /* no slabs, no cache: malloc'd only */
#ifdef CPC_SLABS
    if (cont_is_slot(k)) {
        struct slab *s = slab_of(k);
        if (CPC_LIKELY(s->heap == h))
            slab_free(s, k);
        else
            slab_free_remote(s, k);
        return;
    }
#endif
#ifndef CPC_NO_CACHE
    if (CPC_LIKELY(h != NULL)) {
        size_t total = CPC_HEADER_SIZE + k->size;
        struct cont_class *cl = cont_class_of(h, total);
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

static void cont_release(cpc_continuation *k)
{
    cont_release_in(k, cpc__tls_heap);
}

void cpc__cont_heap_flush(struct cpc__cont_heap *h)
{
#ifndef CPC_NO_CACHE
    for (size_t i = 0; i < CACHE_CLASSES; i++) {
        cpc_continuation *k = h->cont_cache[i].head;
        while (k != NULL) {
            cpc_continuation *next = k->cpc_next;
            free(k);
            k = next;
        }
        h->cont_cache[i].head = NULL;
        h->cont_cache[i].bytes = 0;
    }
#endif
#ifdef CPC_SLABS
    slab_flush(h);
#endif
}

/* Retired heaps, kept for the next new scheduler: slots of theirs may
   still hold threads that moved to other schedulers, and free them into
   the heap later. */
static pthread_mutex_t heaps_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cpc__cont_heap *heaps_retired;        /* heaps_lock */

struct cpc__cont_heap *cpc__cont_heap_new(void)
{
    pthread_mutex_lock(&heaps_lock);
    struct cpc__cont_heap *h = heaps_retired;
    if (h != NULL)
        heaps_retired = h->next_retired;
    pthread_mutex_unlock(&heaps_lock);
    if (h != NULL)
        return h;
    h = aligned_alloc(_Alignof(struct cpc__cont_heap), sizeof *h);
    if (h == NULL)
        return NULL;
    *h = (struct cpc__cont_heap)HEAP_INIT;
    return h;
}

void cpc__cont_heap_retire(struct cpc__cont_heap *h)
{
    cpc__cont_heap_flush(h);
    pthread_mutex_lock(&heaps_lock);
    h->next_retired = heaps_retired;
    heaps_retired = h;
    pthread_mutex_unlock(&heaps_lock);
}

#ifdef CPC_SLABS
/* Whether a continuation with room for `size` bytes of frames comes from a
   slab, and from which class, with how much room.  Size 0 wraps around to
   malloc: the class is then one subtraction and one shift. */
static inline bool slab_sized(size_t size)
{
    return size - 1 < SLAB_MAX_TOTAL - CPC_HEADER_SIZE;
}
static inline size_t slab_class(size_t size)
{
    return (size - 1) / 16;
}
static inline uint32_t slab_room(size_t cls)
{
    return 16 * (cls + 1);
}
#endif

/* A continuation with room for at least `size` bytes of frames; sets
   size, nothing else. */
static inline cpc_continuation *cont_alloc(size_t size)
{
    cpc_continuation *k;
    struct cpc__cont_heap *h = cpc__tls_heap;
#ifdef CPC_SLABS
    if (slab_sized(size) && CPC_LIKELY(h != NULL)) {
        unsigned cls = slab_class(size);
        k = slab_alloc(h, cls);
        k->size = slab_room(cls);
        return k;
    }
#endif
    if (size > UINT32_MAX - CPC_HEADER_SIZE - 32)
        cpc__fatal("continuation of %zu bytes is too large (limit 4 GiB)",
                   size);
    size_t total = cont_round_total(CPC_HEADER_SIZE + size);
    k = cont_malloc(h, total);
    k->size = (uint32_t)(total - CPC_HEADER_SIZE);
    return k;
}

static __attribute__((noinline)) cpc_continuation *cont_new_slow(size_t size)
{
    cpc_continuation *k = cont_alloc(size);
    k->cpc_next = NULL;
    k->length = 0;
    cpc__dbg_init(k);
    return k;
}

/* Every spawn allocates: the common case -- a small continuation on a
   scheduler's thread, a freed slot in the current slab -- is inline here
   and calls nothing, so that it saves no register; the rest is a tail
   call. */
cpc_continuation *cpc_continuation_new(size_t size)
{
#ifdef CPC_SLABS
    struct cpc__cont_heap *h = cpc__tls_heap;
    if (CPC_LIKELY(slab_sized(size) && h != NULL)) {
        size_t cls = slab_class(size);
        cpc_continuation *k = slab_take_freed(h->slab_cur[cls]);
        if (CPC_LIKELY(k != NULL)) {
            /* A freed slot keeps the size its first allocation wrote
               (cont_alloc): a slot's capacity never changes, and the
               free list links through word 0 only. */
            k->cpc_next = NULL;
            k->length = 0;
            return k;
        }
    }
#endif
    return cont_new_slow(size);
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
    cpc_continuation *n = cont_alloc(size);
    n->cpc_next = k->cpc_next;
    n->length = k->length;
    memcpy(n->c, k->c, k->length);
    cpc__dbg_moved(k, n);
    if (!cpc__dbg_free(k))
        cont_release(k);
    return n;
}

/* The shared deferred path (cpc_runtime.h): what F__defer does, the
   fields' offsets and sizes read from d.  The fields follow one another in
   the parameters' order, and cpc_fn follows the last: on a little-endian
   machine each parameter is stored as a whole word at its field's offset
   (its low bytes are the field's value), the next field's store and the
   bounce's overwriting what spills over (padding keeps the rest).
   Elsewhere a parameter goes back to its field's width by a conversion to
   an unsigned type of that width, which keeps its bits. */
static inline void store_word(unsigned char *p, cpc_word w, unsigned width)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    (void)width;
    memcpy(p, &w, sizeof w);
#else
    switch (width) {
    case 1: { uint8_t v = (uint8_t)w; memcpy(p, &v, 1); break; }
    case 2: { uint16_t v = (uint16_t)w; memcpy(p, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)w; memcpy(p, &v, 4); break; }
    default: { uint64_t v = (uint64_t)w; memcpy(p, &v, 8); break; }
    }
#endif
}

/* Reserve room for d's function, push its struct F__args (k: updated). */
static inline __attribute__((always_inline)) unsigned char *defer_frame(cpc_continuation **k, const cpc_deferral *d)
{
    *k = cpc_reserve(*k, d->need > d->size ? d->need : d->size);
    return cpc_push_reserved(*k, d->size);
}

/* Its cpc_fn, written last (see store_word). */
static inline __attribute__((always_inline)) cpc_continuation *defer_done(cpc_continuation *k, unsigned char *frame,
                                           const cpc_deferral *d)
{
    memcpy(frame + d->size - sizeof d->bounce, &d->bounce, sizeof d->bounce);
    return k;
}

#define DEFER_STORE(i, a) store_word(frame + d->offset[i], (a), d->width[i])

cpc_continuation *cpc_defer0(cpc_continuation *k, const cpc_deferral *d)
{
    unsigned char *frame = defer_frame(&k, d);
    return defer_done(k, frame, d);
}

cpc_continuation *cpc_defer1(cpc_continuation *k, cpc_word a0, const cpc_deferral *d)
{
    unsigned char *frame = defer_frame(&k, d);
    DEFER_STORE(0, a0);
    return defer_done(k, frame, d);
}

cpc_continuation *cpc_defer2(cpc_continuation *k, cpc_word a0, cpc_word a1,
                             const cpc_deferral *d)
{
    unsigned char *frame = defer_frame(&k, d);
    DEFER_STORE(0, a0);
    DEFER_STORE(1, a1);
    return defer_done(k, frame, d);
}

cpc_continuation *cpc_defer3(cpc_continuation *k, cpc_word a0, cpc_word a1, cpc_word a2,
                             const cpc_deferral *d)
{
    unsigned char *frame = defer_frame(&k, d);
    DEFER_STORE(0, a0);
    DEFER_STORE(1, a1);
    DEFER_STORE(2, a2);
    return defer_done(k, frame, d);
}

cpc_continuation *cpc_defer4(cpc_continuation *k, cpc_word a0, cpc_word a1, cpc_word a2,
                             cpc_word a3, const cpc_deferral *d)
{
    unsigned char *frame = defer_frame(&k, d);
    DEFER_STORE(0, a0);
    DEFER_STORE(1, a1);
    DEFER_STORE(2, a2);
    DEFER_STORE(3, a3);
    return defer_done(k, frame, d);
}

void cpc__cont_free(cpc_continuation *k)
{
    if (!cpc__dbg_free(k))
        cont_release_in(k, cpc__tls_heap);
}

void cpc__cont_free_default(cpc_continuation *k)
{
    if (!cpc__dbg_free(k))
        cont_release_in(k, &cpc__cont_heap_default);
}

void cpc_continuation_free(cpc_continuation *k)
{
    if (k != NULL)
        cpc__cont_free(k);
}
