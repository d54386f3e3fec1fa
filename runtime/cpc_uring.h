/*
 * cpc_uring.h -- one scheduler's io_uring (cpc_uring.c): set up, take a
 * submission entry, enter the kernel, read the completions.
 */
#ifndef CPC_URING_H
#define CPC_URING_H

#include <linux/io_uring.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cpc__uring {
    int fd;                         /* -1: none */
    unsigned features;              /* IORING_FEAT_* */
    unsigned *sq_head, *sq_tail, *sq_flags;
    unsigned sq_mask, sq_entries;
    unsigned tail;                  /* our copy of *sq_tail */
    struct io_uring_sqe *sqes;
    unsigned *cq_head, *cq_tail;
    unsigned cq_mask;
    struct io_uring_cqe *cqes;
    void *sq_map, *cq_map;
    size_t sq_len, cq_len, sqes_len;
};

/* Set up a ring: 0, or -1 with errno set (no io_uring, or one without
   the features used here). */
int cpc__uring_init(struct cpc__uring *u, unsigned sq_entries,
                    unsigned cq_entries);
void cpc__uring_free(struct cpc__uring *u);
/* In a child after fork: drop this process's view of a ring it shares
   with its parent, without touching the ring. */
void cpc__uring_forsake(struct cpc__uring *u);

/* A zeroed submission entry, queued for the next enter (which happens at
   once if the ring is full); NULL if the kernel takes none. */
struct io_uring_sqe *cpc__uring_sqe(struct cpc__uring *u);

/* Whether looking at the completions needs a system call: entries to
   submit, or completions the kernel has not posted yet. */
bool cpc__uring_must_enter(const struct cpc__uring *u);

/* Submit what is queued and wait until min_complete completions are
   there, at most timeout_ns (< 0: no limit).  0, or -1 with errno. */
int cpc__uring_enter(struct cpc__uring *u, unsigned min_complete,
                     long long timeout_ns);

/* The completions: from *cq_head (ours) up to *cq_tail (the kernel's). */
static inline unsigned cpc__uring_cq_tail(const struct cpc__uring *u)
{
    return atomic_load_explicit((_Atomic unsigned *)u->cq_tail,
                                memory_order_acquire);
}

static inline const struct io_uring_cqe *cpc__uring_cqe(const struct cpc__uring *u,
                                                        unsigned i)
{
    return &u->cqes[i & u->cq_mask];
}

/* The completions up to `head` have been read: their slots are free. */
static inline void cpc__uring_cq_advance(struct cpc__uring *u, unsigned head)
{
    atomic_store_explicit((_Atomic unsigned *)u->cq_head, head,
                          memory_order_release);
}

#endif
