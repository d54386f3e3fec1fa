/*
 * cpc_uring.c -- a minimal io_uring, through the raw system calls: the
 * submission and completion rings of one scheduler (cpc_io.c decides what
 * goes into them).  No liburing: the runtime needs four operations (set
 * up, take a submission entry, enter, read the completions), and users
 * then need no library beyond libc.
 *
 * Only the scheduler's thread touches its ring.  A submission entry filled
 * in costs no system call: the entries wait in the ring until the next
 * cpc__uring_enter, which the scheduler makes when it polls.
 */
#define _GNU_SOURCE
#include "cpc_uring.h"

#include <errno.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int uring_setup(unsigned entries, struct io_uring_params *p)
{
    return (int)syscall(__NR_io_uring_setup, entries, p);
}

static void *ring_map(int fd, size_t len, off_t off)
{
    void *m = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_POPULATE, fd, off);
    return m == MAP_FAILED ? NULL : m;
}

int cpc__uring_init(struct cpc__uring *u, unsigned sq_entries,
                    unsigned cq_entries)
{
    memset(u, 0, sizeof *u);
    u->fd = -1;
    struct io_uring_params p;
    memset(&p, 0, sizeof p);
    /* COOP_TASKRUN (5.19): a poll that fires while the scheduler runs is
       completed at its next system call rather than by interrupting it;
       TASKRUN_FLAG tells a look at the ring that one is pending
       (cpc__uring_must_enter).  The naive server spent 0-9 % less CPU per
       request with it than without, at 1,000-10,000 connections. */
    p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP |
              IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
    p.cq_entries = cq_entries;
    int fd = uring_setup(sq_entries, &p);
    if (fd < 0 && (p.flags & IORING_SETUP_COOP_TASKRUN)) {
        p.flags &= ~(IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG);
        fd = uring_setup(sq_entries, &p);
    }
    if (fd < 0)
        return -1;
    /* Sleeping with a timeout needs EXT_ARG (5.11); a wait needs no
       failure path for lost completions: NODROP (5.5). */
    if (!(p.features & IORING_FEAT_EXT_ARG) || !(p.features & IORING_FEAT_NODROP)) {
        close(fd);
        errno = ENOSYS;
        return -1;
    }
    u->fd = fd;
    u->features = p.features;
    u->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    u->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    if (p.features & IORING_FEAT_SINGLE_MMAP) {
        if (u->cq_len > u->sq_len)
            u->sq_len = u->cq_len;
        u->cq_len = 0;
    }
    u->sq_map = ring_map(fd, u->sq_len, IORING_OFF_SQ_RING);
    u->cq_map = u->sq_map;
    if (u->sq_map != NULL && u->cq_len != 0)
        u->cq_map = ring_map(fd, u->cq_len, IORING_OFF_CQ_RING);
    u->sqes_len = p.sq_entries * sizeof(struct io_uring_sqe);
    u->sqes = u->cq_map != NULL ? ring_map(fd, u->sqes_len, IORING_OFF_SQES)
                                : NULL;
    if (u->sqes == NULL) {
        int e = errno;
        cpc__uring_free(u);
        errno = e;
        return -1;
    }
    char *sq = u->sq_map, *cq = u->cq_map;
    u->sq_head = (unsigned *)(sq + p.sq_off.head);
    u->sq_tail = (unsigned *)(sq + p.sq_off.tail);
    u->sq_flags = (unsigned *)(sq + p.sq_off.flags);
    u->sq_mask = *(unsigned *)(sq + p.sq_off.ring_mask);
    u->sq_entries = p.sq_entries;
    unsigned *array = (unsigned *)(sq + p.sq_off.array);
    for (unsigned i = 0; i < p.sq_entries; i++)
        array[i] = i;               /* entry i always in slot i */
    u->cq_head = (unsigned *)(cq + p.cq_off.head);
    u->cq_tail = (unsigned *)(cq + p.cq_off.tail);
    u->cq_mask = *(unsigned *)(cq + p.cq_off.ring_mask);
    u->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
    u->tail = *u->sq_tail;
    return 0;
}

void cpc__uring_free(struct cpc__uring *u)
{
    if (u->sqes != NULL)
        munmap(u->sqes, u->sqes_len);
    if (u->cq_map != NULL && u->cq_map != u->sq_map)
        munmap(u->cq_map, u->cq_len);
    if (u->sq_map != NULL)
        munmap(u->sq_map, u->sq_len);
    if (u->fd >= 0)
        close(u->fd);
    memset(u, 0, sizeof *u);
    u->fd = -1;
}

void cpc__uring_forsake(struct cpc__uring *u)
{
    /* After fork: the mappings are shared with the parent's ring, which
       the child must not touch; unmapping its own view is safe. */
    cpc__uring_free(u);
}

static unsigned uring_unsubmitted(const struct cpc__uring *u)
{
    return u->tail - atomic_load_explicit((_Atomic unsigned *)u->sq_head,
                                          memory_order_acquire);
}

struct io_uring_sqe *cpc__uring_sqe(struct cpc__uring *u)
{
    if (uring_unsubmitted(u) >= u->sq_entries)
        cpc__uring_enter(u, 0, -1);     /* full: hand them over first */
    if (uring_unsubmitted(u) >= u->sq_entries)
        return NULL;
    struct io_uring_sqe *sqe = &u->sqes[u->tail & u->sq_mask];
    memset(sqe, 0, sizeof *sqe);
    u->tail++;
    /* Published at once: the kernel reads the entry only at the next
       io_uring_enter, after the release below orders its contents. */
    atomic_store_explicit((_Atomic unsigned *)u->sq_tail, u->tail,
                          memory_order_release);
    return sqe;
}

bool cpc__uring_must_enter(const struct cpc__uring *u)
{
    /* Entries to submit, or completions the kernel holds back: task work
       to run (TASKRUN) or an overflowed completion ring. */
    return uring_unsubmitted(u) != 0 ||
           (atomic_load_explicit((_Atomic unsigned *)u->sq_flags,
                                 memory_order_relaxed) &
            (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN)) != 0;
}

int cpc__uring_enter(struct cpc__uring *u, unsigned min_complete,
                     long long timeout_ns)
{
    unsigned flags = IORING_ENTER_GETEVENTS;
    struct __kernel_timespec ts;
    struct io_uring_getevents_arg arg;
    void *argp = NULL;
    size_t argsz = 0;
    if (min_complete > 0 && timeout_ns >= 0) {
        ts.tv_sec = timeout_ns / 1000000000;
        ts.tv_nsec = timeout_ns % 1000000000;
        memset(&arg, 0, sizeof arg);
        arg.ts = (uint64_t)(uintptr_t)&ts;
        argp = &arg;
        argsz = sizeof arg;
        flags |= IORING_ENTER_EXT_ARG;
    }
    int rc = (int)syscall(__NR_io_uring_enter, u->fd, uring_unsubmitted(u),
                          min_complete, flags, argp, argsz);
    if (rc >= 0)
        return 0;
    /* ETIME: the timeout passed; EINTR: a signal; EBUSY: completions to
       read first.  What was submitted before the error moved the ring's
       head. */
    return errno == ETIME || errno == EINTR || errno == EBUSY ? 0 : -1;
}
