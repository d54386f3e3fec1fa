/*
 * cpc_io.c -- waiting for file descriptors, with epoll or io_uring.
 *
 * What follows describes the epoll back-end; the io_uring one (below,
 * "the io_uring back-end") replaces the one-shot registrations with
 * one-shot polls in a ring, and keeps the epoll set for the rest.
 *
 * Each fd has one FIFO of waiters (doubly linked through io_next/io_prev
 * in their wait records), whatever direction they wait for; an event wakes
 * the waiters whose direction is ready, in wait order, and leaves the
 * others.  Several threads may wait on the same fd and direction.
 *
 * Registration uses EPOLLONESHOT: an fd is armed with the union of its
 * waiters' directions when a wait needs a direction that is not armed, and
 * is disarmed by the kernel when it fires; after the wake-ups it is
 * re-armed only if waiters remain.  So there is one epoll_ctl per wait
 * cycle, an fd nobody waits for is never reported again, and an fd closed
 * and reused with the same number is re-added transparently (MOD fails with
 * ENOENT, we ADD; each fd number remembers which of ADD and MOD worked
 * last, and a number with no such history of its own follows the last
 * outcome on its scheduler, so that either pattern costs one call, also
 * the first time a number comes back).  A bad fd is reported by epoll_ctl at wait time:
 * cpc_io_wait then returns -1 with errno EBADF.  Regular files, which
 * epoll refuses (EPERM), are always ready, as with poll(2).
 *
 * Kept fds (cpc_io_keep) skip the re-arming.  The program promised to call
 * cpc_io_forget before it closes one, so while that has not happened the
 * runtime may trust that the number still names the file it registered: a
 * kept fd is registered once per scheduler, edge-triggered for every
 * direction, and a wait on it makes no system call.  An edge that finds
 * no waiter for its direction is remembered (`ready`), and the next wait
 * in that direction is woken at once (queued): no edge is missed, but the
 * fd may have been drained meanwhile -- the edge-triggered contract, which
 * programs reading until EAGAIN meet (checking with poll(2) instead would
 * cost the system call a kept fd saves, and under load edges mostly
 * arrive before the next wait).  A hang-up or an error is remembered for
 * good: it may come in the same edge as input that the program reads
 * without reaching the end of file.  The promise is process-wide
 * (keep_gen below): a scheduler notices that a number was forgotten, and
 * maybe kept again for a new file, by a generation that changed.  The
 * debug runtime checks the promise at every wait and aborts, naming the fd,
 * when a kept number was closed without cpc_io_forget; it also wakes every
 * other wait on a kept fd at once, to exercise the contract.
 *
 * A waiter that also waits on a condvar is on both lists; whichever event
 * comes first unlinks it from the other in O(1).
 *
 * Each scheduler has its own epoll set and fd table (struct cpc_sched),
 * touched only by its thread, and an eventfd in the set that other OS
 * threads write to wake it (its inbox).
 */
#define _GNU_SOURCE
#include "cpc_internal.h"
#include "cpc_uring.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* One entry per fd number, 32 bytes: a server's table grows with its
   connections. */
struct cpc__io_fd {
    cpc_continuation *head, *tail;
    uint32_t nin, nout;         /* waiters per direction */
    uint32_t kept_gen;          /* keep_gen[fd] when this scheduler
                                   registered the fd edge-triggered (kept),
                                   0 when its registration is one-shot */
    uint8_t armed;              /* CPC_IO_* directions armed one-shot */
    uint8_t ready;              /* kept: directions an edge reported while
                                   nobody waited for them; shifted by
                                   IO_HUP_SHIFT, directions a hang-up or
                                   error made ready for good */
    bool in_epoll;              /* fd is in the interest list, as far as
                                   we know (the kernel drops it silently
                                   when the fd is closed) */
    uint8_t arm_op;             /* the operation (EPOLL_CTL_ADD or _MOD)
                                   that worked when this number was last
                                   armed while registered as far as we
                                   knew; 0: never yet (io_arm_op_last) */
};
_Static_assert(sizeof(struct cpc__io_fd) <= 32, "the fd table's entries grew");

#define IO_EVENTS 256

static void io_ring_start(struct cpc_sched *s);
static void io_ring_drop(struct cpc_sched *s, bool forked);
static void io_ring_clear(struct cpc_sched *s);
static void io_ring_arm(struct cpc_sched *s, int fd, struct cpc__io_fd *r,
                        uint32_t dirs);
static void io_ring_disarm(struct cpc_sched *s, int fd, struct cpc__io_fd *r);
static int io_ring_poll(struct cpc_sched *s, int timeout_ms);

/* ---- choosing the back-end ------------------------------------------------

   epoll by default; CPC_IO=uring chooses io_uring where the kernel has it
   (else epoll), CPC_IO=epoll epoll.  Read once, at the first scheduler's
   set-up.  io_uring is not the default because it did not measure clearly
   better: the naive server's CPU time per request at 1,000-10,000
   connections was the same to 9 % lower with it, by about what the
   machine's load moves it (bench/README.md, web servers).
   The debug runtime always uses epoll: its checks of descriptors closed
   under their waiters re-register them in the epoll set, and a poll in
   io_uring holds the file open. */
#define IO_URING_BY_DEFAULT false

static bool io_want_uring;
static pthread_once_t io_choose_once = PTHREAD_ONCE_INIT;

/* Forks seen (io_atfork_child): a child's schedulers give up the rings
   they share with the parent at their next wait or poll. */
static atomic_uint io_fork_count;

static void io_atfork_child(void)
{
    atomic_fetch_add_explicit(&io_fork_count, 1, memory_order_relaxed);
}

static void io_choose(void)
{
    const char *e = getenv("CPC_IO");
    io_want_uring = IO_URING_BY_DEFAULT;
    if (e != NULL && strcmp(e, "uring") == 0)
        io_want_uring = true;
    else if (e != NULL && strcmp(e, "epoll") == 0)
        io_want_uring = false;
    else if (e != NULL && *e != '\0')
        cpc__fatal("CPC_IO=%s: expected uring or epoll", e);
#ifdef CPC_DEBUG
    io_want_uring = false;
#endif
    pthread_atfork(NULL, NULL, io_atfork_child);
}

int cpc__io_init(struct cpc_sched *s)
{
    int epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0)
        return -1;
    int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };
    if (fd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        close(epfd);
        errno = e;
        return -1;
    }
    s->epfd = epfd;
    atomic_store_explicit(&s->wakefd, fd, memory_order_release);
    pthread_once(&io_choose_once, io_choose);
    if (io_want_uring)
        io_ring_start(s);
    return 0;
}

void cpc__io_init_or_exit(struct cpc_sched *s)
{
    if (cpc__io_init(s) == 0)
        return;
    if (errno == ENOMEM)
        cpc__exhausted("out of memory creating a scheduler's epoll set and "
                       "eventfd");
    cpc__exhausted("cannot create a scheduler's epoll set and eventfd: %s",
                   strerror(errno));
}

void cpc__io_shutdown(struct cpc_sched *s)
{
    if (s->io_waiters == 0) {
        /* Nobody waits: forget the table (the kernel side keeps disarmed
           registrations, which are re-armed or re-added as needed). */
        for (size_t i = 0; i < s->io_nfds; i++)
            if (s->io_fds[i].in_epoll)
                epoll_ctl(s->epfd, EPOLL_CTL_DEL, (int)i, NULL);
        if (s->ring != NULL)
            io_ring_clear(s);
        free(s->io_fds);
        s->io_fds = NULL;
        s->io_nfds = 0;
    }
}

void cpc__io_close(struct cpc_sched *s)
{
    if (s->ring != NULL)
        io_ring_drop(s, false);
    int fd = atomic_exchange(&s->wakefd, -1);
    if (fd >= 0)
        close(fd);
    if (s->epfd >= 0)
        close(s->epfd);
    s->epfd = -1;
}

/* ---- kept fds -------------------------------------------------------------- */

/* keep_gen[fd] counts cpc_io_keep and cpc_io_forget calls on fd: odd while
   the fd is kept.  Process-wide, since the schedulers' tables are each
   owned by their thread and a kept fd may be forgotten from any of them.
   The table is sized once, from the descriptor limit at the first keep,
   and never moves, so readers need no lock. */
static size_t keep_n;
static _Atomic(_Atomic uint32_t *) keep_gen;    /* set after keep_n */
static pthread_mutex_t keep_lock = PTHREAD_MUTEX_INITIALIZER;

#define KEEP_MAX_FDS ((size_t)1 << 22)

/* The table, allocated by the first keep (keep_lock held): 0, or -1 with
   errno ENOMEM (a later keep tries again). */
static int keep_table_init(void)
{
    if (atomic_load_explicit(&keep_gen, memory_order_relaxed) != NULL)
        return 0;
    struct rlimit rl;
    size_t n = 1024;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
        rlim_t lim = rl.rlim_max != RLIM_INFINITY ? rl.rlim_max : rl.rlim_cur;
        if (lim != RLIM_INFINITY && lim > n)
            n = lim < KEEP_MAX_FDS ? (size_t)lim : KEEP_MAX_FDS;
    }
    _Atomic uint32_t *t = calloc(n, sizeof *t);
    if (t == NULL) {
        errno = ENOMEM;
        return -1;
    }
    keep_n = n;
    atomic_store_explicit(&keep_gen, t, memory_order_release);
    return 0;
}

/* Make keep_gen[fd] odd (keep) or even (forget). */
static int keep_set(int fd, bool keep)
{
    if (fd < 0) {
        errno = EBADF;
        return -1;
    }
    pthread_mutex_lock(&keep_lock);
    _Atomic uint32_t *t = atomic_load_explicit(&keep_gen, memory_order_relaxed);
    if (t == NULL && !keep) {
        pthread_mutex_unlock(&keep_lock);
        return 0;                   /* nothing was ever kept */
    }
    if (t == NULL && keep_table_init() < 0) {
        pthread_mutex_unlock(&keep_lock);
        return -1;
    }
    t = atomic_load_explicit(&keep_gen, memory_order_relaxed);
    if ((size_t)fd >= keep_n) {
        pthread_mutex_unlock(&keep_lock);
        if (!keep)
            return 0;               /* never kept */
        errno = ERANGE;
        return -1;
    }
    uint32_t g = atomic_load_explicit(&t[fd], memory_order_relaxed);
    if ((g & 1) != keep) {
        g++;
        if (g == 0)
            g = 2;                  /* 0 means "not kept" in the tables */
        atomic_store_explicit(&t[fd], g, memory_order_release);
    }
    pthread_mutex_unlock(&keep_lock);
    return 0;
}

int cpc_io_keep(int fd)
{
    return keep_set(fd, true);
}

int cpc_io_forget(int fd)
{
    return keep_set(fd, false);
}

/* The generation under which fd is kept now, 0 if it is not kept. */
static uint32_t keep_current(int fd)
{
    _Atomic uint32_t *t = atomic_load_explicit(&keep_gen, memory_order_acquire);
    if (t == NULL || (size_t)fd >= keep_n)
        return 0;
    uint32_t g = atomic_load_explicit(&t[fd], memory_order_acquire);
    return (g & 1) ? g : 0;
}

int cpc_io_kept(int fd)
{
    return fd >= 0 && keep_current(fd) != 0;
}

/* fd's entry in s's table, grown as needed; NULL with errno ENOMEM. */
static struct cpc__io_fd *io_fd_get(struct cpc_sched *s, int fd)
{
    if ((size_t)fd >= s->io_nfds) {
        size_t n = s->io_nfds ? s->io_nfds : 64;
        while (n <= (size_t)fd)
            n *= 2;
        struct cpc__io_fd *t = realloc(s->io_fds, n * sizeof *t);
        if (t == NULL)
            return NULL;            /* errno ENOMEM */
        memset(t + s->io_nfds, 0, (n - s->io_nfds) * sizeof *t);
        s->io_fds = t;
        s->io_nfds = n;
    }
    return &s->io_fds[fd];
}

static uint32_t io_dirs_wanted(const struct cpc__io_fd *r)
{
    return (r->nin ? CPC_IO_IN : 0) | (r->nout ? CPC_IO_OUT : 0);
}

/* The operation that worked at the last arm, on this thread's scheduler,
   of a number registered as far as we knew: the guess for a number with no
   history of its own (a scheduler's table is touched by its thread only). */
static _Thread_local uint8_t io_arm_op_last = EPOLL_CTL_MOD;

/* Register fd in s's epoll set for `events`, with ADD or MOD.  Returns 0
   or -1 with errno set. */
static int io_ctl(struct cpc_sched *s, int fd, struct cpc__io_fd *r,
                  uint32_t events)
{
    struct epoll_event ev = { .events = events, .data.fd = fd };
    /* Which operation works depends on whether the fd was closed since
       it was last armed, which only the kernel knows.  Each fd number
       follows its own history: a server closing every connection after
       one wait keeps finding its fd numbers reused (ADD works), one
       keeping connections open keeps finding them registered (MOD
       works); guessing from the last outcome costs one system call per
       arm in both, two only when the pattern changes.  A number coming
       back for the first time follows the scheduler's last outcome: a
       server with 10,000 connections would otherwise pay a second call
       for each of its 10,000 numbers. */
    int op = EPOLL_CTL_ADD;
    if (r->in_epoll)
        op = r->arm_op != 0 ? r->arm_op : io_arm_op_last;
    int rc = epoll_ctl(s->epfd, op, fd, &ev);
    int worked = op;
    if (rc < 0 && op == EPOLL_CTL_MOD && errno == ENOENT) {
        rc = epoll_ctl(s->epfd, EPOLL_CTL_ADD, fd, &ev);  /* closed, reused */
        worked = EPOLL_CTL_ADD;
    } else if (rc < 0 && op == EPOLL_CTL_ADD && errno == EEXIST) {
        rc = epoll_ctl(s->epfd, EPOLL_CTL_MOD, fd, &ev);  /* still there */
        worked = EPOLL_CTL_MOD;
    }
    if (r->in_epoll && rc == 0)
        r->arm_op = io_arm_op_last = (uint8_t)worked;
    r->in_epoll = rc == 0;
    return rc;
}

/* The epoll events of a one-shot registration for `dirs`. */
static uint32_t io_oneshot_events(uint32_t dirs)
{
    uint32_t events = EPOLLONESHOT;
    if (dirs & CPC_IO_IN)
        events |= EPOLLIN | EPOLLRDHUP;
    if (dirs & CPC_IO_OUT)
        events |= EPOLLOUT;
    return events;
}

/* Arm fd for `dirs` (one-shot).  Returns 0 or -1 with errno set. */
static int io_arm(struct cpc_sched *s, int fd, struct cpc__io_fd *r,
                  uint32_t dirs)
{
    if (s->ring != NULL) {
        io_ring_arm(s, fd, r, dirs);
        return 0;                   /* a bad fd is reported by its poll */
    }
    r->kept_gen = 0;
    r->ready = 0;
    int rc = io_ctl(s, fd, r, io_oneshot_events(dirs));
    r->armed = rc == 0 ? dirs : 0;
    return rc;
}

/* Where struct cpc__io_fd's `ready` keeps the directions ready for good. */
#define IO_HUP_SHIFT 2

/* The registration of a kept fd: every direction, edge-triggered, once. */
#define IO_KEPT_EVENTS (EPOLLET | EPOLLIN | EPOLLRDHUP | EPOLLOUT)

/* Register a kept fd for generation gen.  The kernel reports at once the
   directions already ready, so no earlier edge is lost. */
static int io_keep_register(struct cpc_sched *s, int fd, struct cpc__io_fd *r,
                            uint32_t gen)
{
    if (s->ring != NULL && r->kept_gen == 0)
        io_ring_disarm(s, fd, r);   /* its one-shot poll, if any */
    r->armed = 0;                   /* `armed` is for one-shot waits */
    r->ready = 0;
    int rc = io_ctl(s, fd, r, IO_KEPT_EVENTS);
    r->kept_gen = rc == 0 ? gen : 0;
    return rc;
}

/* Whether the registration of fd, which threads wait on, left s's epoll set
   (the kernel drops it when the file is closed): registering it again with
   the events it has works only while the number still names that file. */
static bool io_registration_gone(struct cpc_sched *s, int fd,
                                 struct cpc__io_fd *r)
{
    uint32_t events;
    if (s->ring != NULL && r->kept_gen == 0)
        /* A poll holds its file: the number is closed or names another
           file; only the first is seen here. */
        return r->armed != 0 && fcntl(fd, F_GETFD) < 0 && errno == EBADF;
    if (r->kept_gen != 0)
        events = IO_KEPT_EVENTS;
    else if (r->armed != 0)
        events = io_oneshot_events(r->armed);
    else
        return false;
    struct epoll_event ev = { .events = events, .data.fd = fd };
    return epoll_ctl(s->epfd, EPOLL_CTL_MOD, fd, &ev) < 0 &&
           (errno == ENOENT || errno == EBADF);
}

#ifdef CPC_DEBUG
/* The debug runtime checks the promise of cpc_io_keep at every wait on a
   kept fd registered here (entry r): its registration must still be
   there. */
static void io_dbg_check_kept(struct cpc_sched *s, int fd, struct cpc__io_fd *r)
{
    if (io_registration_gone(s, fd, r))
        cpc__fatal("cpc_io_wait: fd %d is kept (cpc_io_keep) but was closed "
                   "without cpc_io_forget (%s)", fd,
                   errno == ENOENT ? "its number names another file now"
                                   : "the number is closed");
}

/* ... and exercises the edge-triggered contract: every other wait on a
   kept fd is woken at once, as one woken by an edge for input the program
   had already drained, so that a program not ready for it fails in its
   tests rather than under load. */
static bool io_dbg_early_return(void)
{
    static _Thread_local unsigned waits;
    return (++waits & 1) == 0;
}
#else
#define io_dbg_check_kept(s, fd, r) ((void)0)
#define io_dbg_early_return() false
#endif

static void io_list_remove(struct cpc_sched *s, struct cpc__io_fd *r,
                           cpc_continuation *k)
{
    struct cpc_wait *w = cpc_wait_of(k);
    if (w->io_prev != NULL)
        cpc_wait_of(w->io_prev)->io_next = w->io_next;
    else
        r->head = w->io_next;
    if (w->io_next != NULL)
        cpc_wait_of(w->io_next)->io_prev = w->io_prev;
    else
        r->tail = w->io_prev;
    r->nin -= (w->io_dir & CPC_IO_IN) != 0;
    r->nout -= (w->io_dir & CPC_IO_OUT) != 0;
    s->io_waiters--;
    s->blocked--;
}

void cpc__io_unlink(struct cpc_sched *s, cpc_continuation *k)
{
    struct cpc_wait *w = cpc_wait_of(k);
    struct cpc__io_fd *r = &s->io_fds[w->fd];
    io_list_remove(s, r, k);
    /* io_uring: a poll nobody waits for is removed, since it holds the
       file open after the program closes it. */
    if (s->ring != NULL && r->head == NULL && r->kept_gen == 0)
        io_ring_disarm(s, w->fd, r);
    /* epoll: the fd may stay armed for this direction: a later event finding no
       waiter is dropped, and one-shot disarms it; the next wait re-arms
       (see cpc_io_wait__cps), which also covers a closed, reused fd. */
}

/* Wake the waiters of fd whose direction meets `ready`; each gets
   result(its direction & ready). */
static void io_wake(struct cpc_sched *s, struct cpc__io_fd *r, uint32_t ready,
                    bool signal)
{
    cpc_continuation *k = r->head;
    while (k != NULL) {
        struct cpc_wait *w = cpc_wait_of(k);
        cpc_continuation *next = w->io_next;
        if (w->io_dir & ready) {
            int result = signal ? 0 : (int)(w->io_dir & ready);
            io_list_remove(s, r, k);
            if (w->link & CPC_W_COND)
                cpc__cv_unlink(w->cv, k);
            sched_wake(s, k, result);
        }
        k = next;
    }
}

/* Events taken by this thread's polls (see io_poll_gathering). */
static _Thread_local unsigned io_events;

/* ---- the io_uring back-end --------------------------------------------------

   A one-shot wait costs no system call of its own: instead of an epoll_ctl
   that arms the fd, it queues a one-shot poll (IORING_OP_POLL_ADD) in the
   scheduler's submission ring, and the scheduler hands the queued polls to
   the kernel when it polls anyway -- with one io_uring_enter that also
   sleeps when it has nothing to run, and none at all when it only looks
   and has nothing to submit (the completions are read from memory).  The
   entries are those of the epoll back-end: `armed` says which directions
   the pending poll of the fd waits for; `ready`, unused by one-shot waits,
   numbers the fd's polls (user_data carries the number beside the fd), so
   that the completion of a poll that was replaced or removed is known
   stale.  A poll that nobody waits for any more is removed, since it
   holds the file open: a program closing the fd would not release it.

   The epoll set stays, for kept fds (registered once, edge-triggered: no
   system call per wait there either) and the inbox's eventfd; the ring
   holds a poll on it, and when that fires the scheduler takes the set's
   events with epoll_wait, without blocking.  A bad fd is reported by its
   poll's completion (-EBADF): the waiter gets -1 with errno EBADF, as from
   the epoll back-end, one turn of the loop later. */
#define IO_RING_SQ 512
#define IO_RING_CQ 4096
#define IO_UD_EPOLL (UINT64_C(1) << 63)     /* the poll on the epoll set */
#define IO_UD_REMOVE (UINT64_C(1) << 62)    /* a removal's own completion */

static uint64_t io_ring_ud(int fd, uint8_t gen)
{
    return (uint64_t)gen << 32 | (uint32_t)fd;
}

static struct io_uring_sqe *io_ring_sqe(struct cpc_sched *s)
{
    struct io_uring_sqe *sqe = cpc__uring_sqe(s->ring);
    if (sqe == NULL)
        cpc__fatal("io_uring: the kernel takes no more submissions: %s",
                   strerror(errno));
    return sqe;
}

static void io_ring_poll_add(struct cpc_sched *s, int fd, uint32_t events,
                             uint64_t ud)
{
    struct io_uring_sqe *sqe = io_ring_sqe(s);
    sqe->opcode = IORING_OP_POLL_ADD;
    sqe->fd = fd;
    sqe->poll32_events = events;
    sqe->user_data = ud;
}

static void io_ring_watch_epoll(struct cpc_sched *s)
{
    io_ring_poll_add(s, s->epfd, POLLIN, IO_UD_EPOLL);
}

static void io_ring_start(struct cpc_sched *s)
{
    struct cpc__uring *u = &s->ring_store;
    if (cpc__uring_init(u, IO_RING_SQ, IO_RING_CQ) < 0)
        return;                     /* epoll */
    s->ring = u;
    s->ring_fork = atomic_load_explicit(&io_fork_count, memory_order_relaxed);
    io_ring_watch_epoll(s);
}

/* Queue the removal of fd's pending poll, if any. */
static void io_ring_disarm(struct cpc_sched *s, int fd, struct cpc__io_fd *r)
{
    if (r->armed == 0)
        return;
    struct io_uring_sqe *sqe = io_ring_sqe(s);
    sqe->opcode = IORING_OP_POLL_REMOVE;
    sqe->addr = io_ring_ud(fd, r->ready);
    sqe->user_data = IO_UD_REMOVE;
    if (s->ring->features & IORING_FEAT_CQE_SKIP)
        sqe->flags = IOSQE_CQE_SKIP_SUCCESS;
    r->armed = 0;
}

/* Queue a one-shot poll of fd for `dirs`, replacing the pending one. */
static void io_ring_arm(struct cpc_sched *s, int fd, struct cpc__io_fd *r,
                        uint32_t dirs)
{
    if (r->kept_gen != 0 || r->in_epoll) {
        /* Left by a forgotten keep: out of the epoll set. */
        if (r->in_epoll)
            epoll_ctl(s->epfd, EPOLL_CTL_DEL, fd, NULL);
        r->in_epoll = false;
        r->arm_op = 0;
        r->kept_gen = 0;
        r->ready = 0;
        r->armed = 0;
    }
    io_ring_disarm(s, fd, r);
    r->ready++;
    uint32_t events = 0;
    if (dirs & CPC_IO_IN)
        events |= POLLIN | POLLRDHUP;
    if (dirs & CPC_IO_OUT)
        events |= POLLOUT;
    io_ring_poll_add(s, fd, events, io_ring_ud(fd, r->ready));
    r->armed = (uint8_t)dirs;
}

static void io_wake_closed(struct cpc_sched *s, struct cpc__io_fd *r);

/* The completion of fd's poll number gen: wake-ups, and a new poll for
   the waiters left. */
static void io_ring_complete(struct cpc_sched *s, int fd, uint8_t gen, int res)
{
    if (fd < 0 || (size_t)fd >= s->io_nfds)
        return;
    struct cpc__io_fd *r = &s->io_fds[fd];
    if (r->kept_gen != 0 || r->armed == 0 || r->ready != gen)
        return;                     /* replaced or removed meanwhile */
    r->armed = 0;
    if (res < 0) {
        /* Not polled: a closed or never opened fd (EBADF). */
        io_wake_closed(s, r);
        return;
    }
    uint32_t ready = 0;
    /* Errors and hang-ups wake both directions, as with epoll. */
    if (res & (POLLIN | POLLRDHUP | POLLHUP | POLLERR))
        ready |= CPC_IO_IN;
    if (res & (POLLOUT | POLLHUP | POLLERR))
        ready |= CPC_IO_OUT;
    io_wake(s, r, ready, false);
    if (r->head != NULL)
        io_ring_arm(s, fd, r, io_dirs_wanted(r));
}

static int io_epoll_once(struct cpc_sched *s, int timeout_ms);

/* Read the completions there; returns the number of fd events. */
static int io_ring_reap(struct cpc_sched *s)
{
    struct cpc__uring *u = s->ring;
    unsigned head = *u->cq_head, tail = cpc__uring_cq_tail(u);
    bool epoll_ready = false;
    int n = 0;
    for (; head != tail; head++) {
        const struct io_uring_cqe *c = cpc__uring_cqe(u, head);
        uint64_t ud = c->user_data;
        int res = c->res;
        if (ud & IO_UD_EPOLL) {
            epoll_ready = true;
            continue;
        }
        if (ud & IO_UD_REMOVE)
            continue;
        n++;
        io_ring_complete(s, (int)(uint32_t)ud, (uint8_t)(ud >> 32), res);
    }
    cpc__uring_cq_advance(u, head);
    io_events += (unsigned)n;
    if (epoll_ready) {
        n += io_epoll_once(s, 0);
        io_ring_watch_epoll(s);
    }
    return n;
}

/* io_poll_once for the io_uring back-end. */
static int io_ring_poll(struct cpc_sched *s, int timeout_ms)
{
    struct cpc__uring *u = s->ring;
    int rc = 0;
    if (timeout_ms != 0)
        rc = cpc__uring_enter(u, 1, timeout_ms < 0 ? -1
                                    : (long long)timeout_ms * 1000000);
    else if (cpc__uring_must_enter(u))
        rc = cpc__uring_enter(u, 0, -1);
    if (rc < 0)
        cpc__fatal("io_uring_enter: %s", strerror(errno));
    return io_ring_reap(s);
}

/* No thread waits for an fd any more (cpc__io_shutdown): remove the polls
   left (those of threads woken by cpc_signal_fd). */
static void io_ring_clear(struct cpc_sched *s)
{
    for (size_t i = 0; i < s->io_nfds; i++)
        if (s->io_fds[i].kept_gen == 0)
            io_ring_disarm(s, (int)i, &s->io_fds[i]);
    if (cpc__uring_must_enter(s->ring))
        cpc__uring_enter(s->ring, 0, -1);
}

/* Go back to epoll: the scheduler is driven from a host loop, which
   watches the epoll fd (cpc_scheduler_backend_fd), or runs in a child of
   fork, whose ring is its parent's (`forked`: the ring is left alone).
   The waits under way are armed in the epoll set. */
static void io_ring_drop(struct cpc_sched *s, bool forked)
{
    if (forked) {
        cpc__uring_forsake(s->ring);
    } else {
        io_ring_clear(s);
        cpc__uring_free(s->ring);
    }
    s->ring = NULL;
    for (size_t i = 0; i < s->io_nfds; i++) {
        struct cpc__io_fd *r = &s->io_fds[i];
        if (r->kept_gen != 0)
            continue;
        r->armed = 0;
        r->ready = 0;
        if (r->head != NULL && io_arm(s, (int)i, r, io_dirs_wanted(r)) < 0)
            io_wake_closed(s, r);
    }
}

/* A child of fork gives up its parent's ring at its first wait or poll. */
static inline void io_ring_check_fork(struct cpc_sched *s)
{
    if (s->ring != NULL &&
        s->ring_fork != atomic_load_explicit(&io_fork_count, memory_order_relaxed))
        io_ring_drop(s, true);
}

void cpc__io_use_epoll(struct cpc_sched *s)
{
    io_ring_check_fork(s);
    if (s->ring != NULL)
        io_ring_drop(s, false);
}

#ifdef CPC_DEBUG
/* The debug runtime detects a descriptor closed with close(2) -- not
   cpc_close -- under its waiters, which epoll drops without an event:
   before the scheduler blocks (at most every IO_DBG_CHECK_MS), it
   registers each waited-on fd again with the events it has, which works
   only while the number still names the file registered, and aborts
   naming the fd otherwise.  Meanwhile it blocks IO_DBG_CHECK_MS at most at
   a time, so that a program stranded for ever is told. */
#define IO_DBG_CHECK_MS 100

/* cpc_close calls under way on any thread, from before their close(2)
   until their notices to the other schedulers are posted.  Meanwhile a
   registration may be gone on another scheduler through no fault of the
   program's: the check leaves it to its next round. */
static atomic_int io_dbg_closing;
#define io_dbg_close_begin() \
    atomic_fetch_add_explicit(&io_dbg_closing, 1, memory_order_seq_cst)
#define io_dbg_close_end() \
    atomic_fetch_sub_explicit(&io_dbg_closing, 1, memory_order_seq_cst)

/* Whether s may yet hear of a close that explains a registration found
   gone: a cpc_close is under way, or its notice waits in s's inbox (posted
   before the count went down, so seen here once the count is read 0). */
static bool io_dbg_close_pending(struct cpc_sched *s)
{
    return atomic_load_explicit(&io_dbg_closing, memory_order_seq_cst) != 0 ||
           atomic_load_explicit(&s->inbox_pending, memory_order_relaxed);
}

static void io_dbg_check_closed(struct cpc_sched *s)
{
    static _Thread_local int64_t last;
    int64_t now = cpc__mono_ns();
    if (now - last < (int64_t)IO_DBG_CHECK_MS * 1000000 / 2)
        return;
    last = now;
    for (size_t fd = 0; fd < s->io_nfds; fd++) {
        struct cpc__io_fd *r = &s->io_fds[fd];
        if (r->head == NULL || !io_registration_gone(s, (int)fd, r))
            continue;
        int e = errno;
        if (io_dbg_close_pending(s))
            return;                 /* the next round sees */
        errno = e;
        unsigned n = 0;
        for (cpc_continuation *k = r->head; k != NULL;
             k = cpc_wait_of(k)->io_next)
            n++;
        cpc__fatal("cpc_io_wait: fd %zu was closed while %u thread%s waited "
                   "on it, which leaves %s waiting for ever (%s; close it with "
                   "cpc_close, which wakes its waiters with EBADF)", fd, n,
                   n == 1 ? "" : "s", n == 1 ? "it" : "them",
                   errno == ENOENT ? "its number names another file now"
                                   : "the number is closed");
    }
}

static int io_dbg_poll_timeout(struct cpc_sched *s, int timeout_ms)
{
    if (timeout_ms == 0 || s->io_waiters == 0)
        return timeout_ms;
    io_dbg_check_closed(s);
    return timeout_ms < 0 || timeout_ms > IO_DBG_CHECK_MS ? IO_DBG_CHECK_MS
                                                          : timeout_ms;
}
#else
#define io_dbg_poll_timeout(s, timeout_ms) (timeout_ms)
#define io_dbg_close_begin() ((void)0)
#define io_dbg_close_end() ((void)0)
#endif


/* One epoll_wait and its wake-ups; returns the number of events. */
static int io_epoll_once(struct cpc_sched *s, int timeout_ms)
{
    struct epoll_event evs[IO_EVENTS];
    int wakefd = atomic_load_explicit(&s->wakefd, memory_order_relaxed);
    timeout_ms = io_dbg_poll_timeout(s, timeout_ms);
    int n = epoll_wait(s->epfd, evs, IO_EVENTS, timeout_ms);
    if (n < 0) {
        if (errno == EINTR)
            return 0;
        cpc__fatal("epoll_wait: %s", strerror(errno));
    }
    io_events += (unsigned)n;
    for (int i = 0; i < n; i++) {
        int fd = evs[i].data.fd;
        uint32_t e = evs[i].events;
        if (fd == wakefd) {
            uint64_t v;
            ssize_t rd = read(fd, &v, sizeof v);
            (void)rd;
            continue;
        }
        if ((size_t)fd >= s->io_nfds)
            continue;
        struct cpc__io_fd *r = &s->io_fds[fd];
        uint32_t ready = 0;
        /* Errors and hang-ups wake both directions: the next read or
           write reports them. */
        if (e & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
            ready |= CPC_IO_IN;
        if (e & (EPOLLOUT | EPOLLHUP | EPOLLERR))
            ready |= CPC_IO_OUT;
        if (r->kept_gen != 0) {
            /* Edge-triggered and still registered: remember the edges
               nobody was waiting for.  A hang-up or an error stays: its
               edge may have come with input the program reads without
               reaching the end of file, and no other edge will follow. */
            r->ready |= ready & ~io_dirs_wanted(r);
            if (e & (EPOLLHUP | EPOLLERR))
                r->ready |= (CPC_IO_IN | CPC_IO_OUT) << IO_HUP_SHIFT;
            else if (e & EPOLLRDHUP)
                r->ready |= CPC_IO_IN << IO_HUP_SHIFT;  /* end of file */
            io_wake(s, r, ready, false);
            continue;
        }
        r->armed = 0;                       /* one-shot fired */
        io_wake(s, r, ready, false);
        if (r->head != NULL) {
            uint32_t want = io_dirs_wanted(r);
            if (io_arm(s, fd, r, want) < 0) {
                /* The fd went bad under its waiters (closed): wake them,
                   their next read or write reports the error. */
                io_wake(s, r, CPC_IO_IN | CPC_IO_OUT, false);
            }
        }
    }
    return n;
}

/* One look at the ready fds, sleeping at most timeout_ms (-1: no limit)
   when there are none; returns the number of events. */
static int io_poll_once(struct cpc_sched *s, int timeout_ms)
{
    if (s->ring != NULL)
        return io_ring_poll(s, timeout_ms);
    return io_epoll_once(s, timeout_ms);
}

/* ---- gathering events before a sleep ---------------------------------------

   A scheduler that runs out of work sleeps in epoll_wait, and the first
   event wakes it.  Under a load generator that is slower than the server
   (wrk on loopback), a server with thousands of connections then sleeps
   after almost every request: 0.6 sleeps per request for the naive server
   at 5,000 connections, each a context switch that costs several
   microseconds of the server's CPU on a virtual machine.  A scheduler with
   at least IO_GATHER_WAITERS threads waiting for fds therefore first looks
   without blocking, and, finding nothing, sleeps IO_GATHER_NS before it
   waits for the first event: the events of those microseconds are then
   taken with one wake-up.  With that many connections the added delay is
   small beside the time each one waits for its turn anyway, and requests
   keep arriving: gathering at every idle period took the naive server at
   5,000 connections on a quiet machine from 0.6 to 0.06 context switches
   per request (bench/RESULTS.md).

   The gathering pays only when more than one event follows it before the
   scheduler runs out of work again: one event a cycle costs a sleep each,
   as without it, and delays each (one busy client among many idle
   connections).  Such a gathering is a miss, and one followed by more
   events takes a miss back; at IO_GATHER_MISSES misses the scheduler
   sleeps as before for its next 1, 2, 4 ... up to IO_GATHER_SKIP_MAX idle
   periods, and tries again then, the wait doubling at each further miss.
   The events are counted up to the next idle period, not only those the
   gathering sleep found: under load the first poll after it often finds
   one or two (at 8,000 requests/s, 200 us hold 1.6 on average), and
   judging by those alone backed off so often that 0.2-0.25 context
   switches per request remained at 5,000 connections, against 0.04-0.06
   without the back-off (at a load average of 6).

   The delay applies only when the scheduler is idle: while threads are
   runnable, the service bound of the run loop holds as before.  A timer
   due meanwhile is served at most IO_GATHER_NS late (a sleep's timeout
   is rounded up to a millisecond anyway).  A thread queued by another
   scheduler during the gathering sleep waits for its end (the eventfd
   wakes only the epoll_wait that follows).  Per OS thread, as
   io_arm_op_last: a scheduler's loop runs on one thread at a time. */
#define IO_GATHER_WAITERS 256
#define IO_GATHER_NS 200000
#define IO_GATHER_MIN_EVENTS 2
#define IO_GATHER_MISSES 4
#define IO_GATHER_SKIP_MAX 256

static _Thread_local unsigned io_gather_skip, io_gather_backoff, io_gather_misses;
static _Thread_local bool io_gather_pending;    /* a gathering awaits its verdict */

/* Poll for s, which is idle, gathering events first; timeout_ms != 0. */
static void io_poll_gathering(struct cpc_sched *s, int timeout_ms)
{
    if (io_poll_once(s, 0) > 0)
        return;                         /* work already there: no sleep */
    struct timespec gather = { 0, IO_GATHER_NS };
    while (nanosleep(&gather, &gather) < 0 && errno == EINTR)
        ;
    /* The rest of the timeout, which was rounded up to a millisecond. */
    if (timeout_ms > 0)
        timeout_ms--;
    io_events = 0;
    io_gather_pending = true;
    io_poll_once(s, timeout_ms);
}

/* The verdict on the last gathering, when the scheduler runs out of work
   again: the events taken since then. */
static void io_gather_judge(void)
{
    io_gather_pending = false;
    if (io_events >= IO_GATHER_MIN_EVENTS) {
        io_gather_misses -= io_gather_misses > 0;
        io_gather_backoff = 0;
        return;
    }
    if (io_gather_misses < IO_GATHER_MISSES)
        io_gather_misses++;
    if (io_gather_misses < IO_GATHER_MISSES)
        return;
    io_gather_backoff = io_gather_backoff == 0 ? 1
                      : io_gather_backoff >= IO_GATHER_SKIP_MAX / 2 ? IO_GATHER_SKIP_MAX
                      : io_gather_backoff * 2;
    io_gather_skip = io_gather_backoff;
}

void cpc__io_poll(struct cpc_sched *s, int timeout_ms)
{
    io_ring_check_fork(s);
    if (timeout_ms != 0 && io_gather_pending)
        io_gather_judge();
    if (timeout_ms != 0 && s->io_waiters >= IO_GATHER_WAITERS) {
        if (io_gather_skip == 0) {
            io_poll_gathering(s, timeout_ms);
            return;
        }
        io_gather_skip--;
    }
    io_poll_once(s, timeout_ms);
}

/* ---- primitives ------------------------------------------------------------ */

static int io_wait_blocking(int fd, int direction)
{
    struct pollfd p = { .fd = fd, .events = 0 };
    if (direction & CPC_IO_IN)
        p.events |= POLLIN;
    if (direction & CPC_IO_OUT)
        p.events |= POLLOUT;
    for (;;) {
        int rc = poll(&p, 1, -1);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0)
            return -1;
        break;
    }
    if (p.revents & POLLNVAL) {
        errno = EBADF;
        return -1;
    }
    int ready = 0;
    if (p.revents & (POLLIN | POLLHUP | POLLERR))
        ready |= CPC_IO_IN;
    if (p.revents & (POLLOUT | POLLHUP | POLLERR))
        ready |= CPC_IO_OUT;
    return ready & direction;
}

static cpc_continuation *io_return(cpc_continuation *k, int v)
{
    return cpc_return(k, &v, sizeof v);
}

cpc_continuation *cpc_io_wait__cps(cpc_continuation *k, int fd, int direction,
                                   cpc_condvar *c)
{
    if (direction == 0 || (direction & ~(CPC_IO_IN | CPC_IO_OUT)) != 0) {
        errno = EINVAL;
        return io_return(k, -1);
    }
    if (fd < 0) {
        errno = EBADF;
        return io_return(k, -1);
    }
    struct cpc_sched *s = cpc__tls_sched;
    if (s == NULL) {
        if (c != NULL)
            cpc_require_attached("cpc_io_wait with a condvar");
        return io_return(k, io_wait_blocking(fd, direction));
    }
    io_ring_check_fork(s);
    struct cpc__io_fd *r = io_fd_get(s, fd);
    if (r == NULL) {
        errno = ENOMEM;
        return io_return(k, -1);
    }
    uint32_t gen = keep_current(fd);
    int rc = 0;
    if (gen != 0 && r->kept_gen == gen) {
        /* Kept and registered here: no system call.  An edge that came
           while nobody waited is this wait's: the thread is woken at once,
           at the end of the run queue, after the threads woken before
           it -- going on at once instead lets a busy connection overtake
           the others, which lengthens the latency tail. */
        io_dbg_check_kept(s, fd, r);
        uint32_t seen = (r->ready | r->ready >> IO_HUP_SHIFT) & (uint32_t)direction;
        if (io_dbg_early_return())
            seen = (uint32_t)direction;
        if (seen != 0) {
            r->ready &= ~seen;
            k = cpc_reserve(k, sizeof(int));
            cpc__dbg_suspend(k, false);
            sched_wake(s, k, (int)seen);
            return NULL;
        }
    } else if (gen != 0) {
        rc = io_keep_register(s, fd, r, gen);
    } else {
        uint32_t want = (uint32_t)direction | io_dirs_wanted(r);
        /* `armed` is trusted only while other threads wait on the fd: once
           the last waiter left early (condvar, cpc_signal_fd), the fd may
           have been closed and its number reused, and the kernel forgot
           it.  Arming costs the one syscall a wait cycle costs anyway.  A
           registration left by a forgotten keep is always replaced. */
        if (r->head == NULL || (want & ~r->armed) != 0 || r->kept_gen != 0)
            rc = io_arm(s, fd, r, want);
    }
    if (rc < 0) {
        if (errno == EPERM)             /* regular file: always ready */
            return io_return(k, direction);
        return io_return(k, -1);
    }
    k = cpc_reserve(k, CPC_WAIT_IO);
    cpc__dbg_suspend(k, false);
    struct cpc_wait *w = cpc_wait_of(k);
    if (c != NULL) {
        cpc__cv_enqueue(c, k, CPC_W_COND | CPC_W_IO);
        w->cv = c;
    } else {
        w->link = CPC_W_IO;
    }
    w->fd = fd;
    w->io_dir = (uint32_t)direction;
    w->io_next = NULL;
    w->io_prev = r->tail;
    if (r->tail != NULL)
        cpc_wait_of(r->tail)->io_next = k;
    else
        r->head = k;
    r->tail = k;
    r->nin += (direction & CPC_IO_IN) != 0;
    r->nout += (direction & CPC_IO_OUT) != 0;
    s->io_waiters++;
    s->blocked++;
    return NULL;
}

/* ---- closing ------------------------------------------------------------- */

/* A waiter woken by cpc_close resumes through this one-word frame, pushed
   above its own top frame into the room of its wait record: it pops
   itself, sets errno (the waiter's, on the OS thread that resumes it) and
   leaves -1 where the caller reads cpc_io_wait's result. */
CPC_FRAMES_BEGIN
struct io_closed_frame { cpc_function *cpc_fn; };
CPC_FRAMES_END
_Static_assert(sizeof(struct io_closed_frame) + sizeof(int) <= CPC_WAIT_IO,
               "the wait record's room holds the frame and the result");

static cpc_continuation *io_closed_resume(cpc_continuation *k)
{
    CPC_DROP(k, struct io_closed_frame);
    errno = EBADF;
    cpc_set_result(k, -1);
    return k;
}

/* Wake every waiter of fd (entry r of s's table) with -1/EBADF, and
   forget the entry. */
static void io_wake_closed(struct cpc_sched *s, struct cpc__io_fd *r)
{
    if (s->ring != NULL && r->kept_gen == 0)
        io_ring_disarm(s, (int)(r - s->io_fds), r);
    cpc_continuation *k = r->head;
    while (k != NULL) {
        struct cpc_wait *w = cpc_wait_of(k);
        cpc_continuation *next = w->io_next;
        io_list_remove(s, r, k);
        if (w->link & CPC_W_COND)
            cpc__cv_unlink(w->cv, k);
        CPC_PUSH_RESERVED(k, struct io_closed_frame)->cpc_fn = io_closed_resume;
        sched_runq_push(s, k);
        k = next;
    }
    memset(r, 0, sizeof *r);
}

int cpc_close(int fd)
{
    if (fd < 0) {
        errno = EBADF;
        return -1;
    }
    cpc_io_forget(fd);
    struct cpc_sched *s = cpc__tls_sched;
    if (s != NULL && (size_t)fd < s->io_nfds) {
        struct cpc__io_fd *r = &s->io_fds[fd];
        /* Out of the epoll set first: a duplicate of fd would keep the
           registration alive under a number that no longer names it. */
        if (r->in_epoll)
            epoll_ctl(s->epfd, EPOLL_CTL_DEL, fd, NULL);
        bool polled = s->ring != NULL && r->kept_gen == 0 && r->armed != 0;
        io_wake_closed(s, r);
        /* A poll in io_uring holds the file: removed before the close,
           or the close would not release it. */
        if (polled && cpc__uring_enter(s->ring, 0, -1) < 0)
            cpc__fatal("io_uring_enter: %s", strerror(errno));
    }
    io_dbg_close_begin();
    int rc = close(fd);
    int e = errno;
    /* Waiters on other schedulers: each checks, on its own thread, whether
       its registration of fd is gone, and wakes them if so. */
    cpc__sched_post_close(fd);
    io_dbg_close_end();
    errno = e;
    return rc;
}

void cpc__io_closed_elsewhere(struct cpc_sched *s, int fd)
{
    size_t from = fd < 0 ? 0 : (size_t)fd;
    size_t to = fd < 0 ? s->io_nfds : (size_t)fd + 1;
    for (size_t i = from; i < to && i < s->io_nfds; i++) {
        struct cpc__io_fd *r = &s->io_fds[i];
        if (r->head != NULL && io_registration_gone(s, (int)i, r))
            io_wake_closed(s, r);
    }
}

void cpc_signal_fd(int fd, int direction)
{
    cpc_require_attached("cpc_signal_fd");
    struct cpc_sched *s = cpc__tls_sched;
    if (s == NULL || fd < 0 || (size_t)fd >= s->io_nfds)
        return;
    struct cpc__io_fd *r = &s->io_fds[fd];
    io_wake(s, r, (uint32_t)direction, true);
    if (s->ring != NULL && r->head == NULL && r->kept_gen == 0)
        io_ring_disarm(s, fd, r);
}
