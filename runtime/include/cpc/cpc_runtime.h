/*
 * cpc/cpc_runtime.h -- the CPC runtime interface.
 *
 * This header is read in two modes:
 *
 *  - Front-end mode (__CPC_FRONTEND__ defined): cpcc parses a .cpc file with
 *    Clang.  The CPC keywords are macros expanding to constructs Clang
 *    parses and the translator recognises, and the primitives are declared
 *    with their source-level signatures (cps, optional arguments).
 *
 *  - C mode (the default): the generated C, the runtime itself and
 *    hand-written cps code see the ABI below: continuations, frames, and the
 *    C entry points of the cps primitives.
 *
 * ======================================================================
 * The calling convention (the ABI between translated code and runtime)
 * ======================================================================
 *
 * Continuations.  A thread is a cpc_continuation: a heap buffer holding a
 * stack of frames, c[0 .. length), with capacity `size`.  A frame is a
 * packed-or-aligned struct whose LAST member is the function pointer
 * `cpc_fn` of type cpc_function; the top frame is the one ending at
 * c[length].  A frame struct is declared between CPC_FRAMES_BEGIN and
 * CPC_FRAMES_END, which fix its packing (8-byte alignment by default, none
 * with -DCPC_PACKED_FRAMES; every frame's size is then a multiple of 8, or
 * exact).
 *
 *     typedef cpc_continuation *cpc_function(cpc_continuation *k);
 *
 * cps functions.  A cps function `cps T f(P1 a1, ..., Pn an)` is compiled to
 * the C function
 *
 *     cpc_continuation *f__cps(cpc_continuation *k, P1 a1, ..., Pn an);
 *
 * (CPC_CPS_NAME(f)).  Calling it runs f on the thread whose continuation
 * is k.  It returns the continuation to run next, or NULL when the thread
 * was handed to the scheduler (it suspended, ended or moved).  A cps function
 * may call native functions freely, and calls cps functions directly:
 *
 *   - Entry: `if (!cpc_enter(k, need)) return f__defer(k, a1, ..., an);`
 *     (or, for at most four integer or pointer parameters, the shared
 *     `return cpc_deferN(k, (cpc_word)a1, ..., &f__deferral);`)
 *     reserves room for everything the invocation writes (see
 *     "Reservation" below) and spends one unit of the call budget.  A
 *     leaf, which makes no cps call, checks the room alone
 *     (cpc_enter_leaf): it nests one C frame and calls nothing further.
 *   - Non-tail cps call `x = g(e1, e2); rest`: evaluate the callee and the
 *     arguments into temporaries, make the top frame hold the caller's live
 *     variables with cpc_fn set to the caller's resume function for this
 *     call site, then `return g__cps(k, t1, t2);`.  How the frame gets
 *     there is the caller's business: translated code pushes one frame per
 *     invocation at entry (CPC_PUSH_RESERVED), updates it in place at each
 *     call site (CPC_TOP) and drops it on every way out (CPC_DROP);
 *     hand-written code may push a frame per call and pop it on resume.
 *   - Tail call `return g(e);` (same return type, or void caller discarding
 *     the value): drop the caller's own frame if it has one, then
 *     `return g__cps(k, t);`.
 *
 * Return values.  `return v;` in a cps function with return type T writes v
 * at c[length .. length+sizeof(T)) -- just above the top frame, which is the
 * caller's frame -- and returns k, or (translated code, optimised) what the
 * caller's resume function returns, called at once under the call budget
 * (cpc_resume_caller):
 *
 *     return cpc_return_reserved(k, &v, sizeof v);
 *
 * (The entry reserved the room.  Hand-written code may use cpc_return, which
 * grows the buffer when needed and so may return a moved k.)  A
 * void cps function returns k unchanged, or cpc_resume_caller(k).  The resume function of the
 * caller finds its frame on top (CPC_TOP, or CPC_POP) and reads the value
 * with CPC_RESULT; a frame that expects no value ignores what lies above
 * it.
 *
 * The trampoline.  The scheduler runs a thread by
 *
 *     while (k != NULL && k->length > 0) k = top_frame(k)->cpc_fn(k);
 *
 * and frees it when the continuation is empty (the thread's outermost
 * function returned).  Resume functions pop their own frame.  Before each
 * frame it sets cpc_budget to CPC_DIRECT_BUDGET; every cps function entry
 * but a leaf's decrements it and, once it is negative, defers: pushes its
 * arguments as a frame whose cpc_fn re-enters the function, and returns k.
 * This keeps the C stack bounded at every optimisation level whatever the
 * depth of cps recursion (a leaf adds one C frame, and its return spends
 * a unit as every return does).
 *
 * Spawning.  cpc_spawn_continuation(k) queues a new thread: k is a fresh
 * continuation (cpc_continuation_new) holding one frame whose cpc_fn starts
 * the thread, typically a thunk that pops the arguments and calls f__cps.
 *
 * Primitives are cps functions written in C with the same convention: they
 * take k and return either k (continue at once) or NULL (k was queued
 * somewhere and the thread is suspended); the inline yield of optimised
 * code, called from the default scheduler's trampoline, queues k and
 * returns the next runnable thread (cpc_yield__cps below).  When a
 * suspended thread resumes
 * with a value (cpc_wait's CPC_CONDVAR, ...), the runtime writes it above
 * the top frame before requeueing it.
 *
 * Ownership: a continuation is one-shot.  Exactly one party holds it at any
 * time (the running code, a queue, a condvar, the timer heap, a backend
 * that parked it, ...).  The debug build (-DCPC_DEBUG, libcpc_debug.a)
 * checks it: resuming a continuation twice or after it was freed aborts
 * with a message naming the thread's top frame.
 *
 * Parking.  A backend that resumes threads itself (QEMU's coroutines) parks
 * the running thread with `cpc_park(&slot)` (cps): its continuation goes to
 * slot.  The backend later runs it on its own OS thread with
 * cpc_continuation_run, gives it to the scheduler with
 * cpc_spawn_continuation, or frees it; exactly one of these, once per
 * parking.
 */
#ifndef CPC_RUNTIME_H
#define CPC_RUNTIME_H

/* Only what the declarations below need: a program may define what other
   headers declare (its own strlen or uint64_t), as it may with the
   original CPC's header.  Copies use __builtin_memcpy, not <string.h>. */
#include <pthread.h>
#include <stddef.h>
#include <time.h>
#include <sys/time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The declarations of the public headers are the library's exported API
   (the runtime is compiled with -fvisibility=hidden). */
#pragma GCC visibility push(default)

/* The exit status of a program the runtime ends because memory, or
   another resource it cannot do without, ran out where the interface has
   no way to report it (docs/abi.md, "Running out of memory"). */
#define CPC_EXIT_EXHAUSTED 71

#define CPC_IO_IN   1
#define CPC_IO_OUT  2
#define CPC_TIMEOUT 4
#define CPC_CONDVAR 8

typedef struct cpc_condvar cpc_condvar;
typedef struct cpc_sched cpc_sched;
typedef struct cpc_continuation cpc_continuation;

#define cpc_default_sched ((cpc_sched *)0)
/* The default pool (16 pthreads at most), ready from the start; its first
   pthread is created when a thread first detaches. */
extern cpc_sched *cpc_default_threadpool;

/* Runs the default scheduler's attached threads until nothing can ever
   run again, on any scheduler: no runnable, sleeping, I/O-waiting or
   detached thread, and nothing in an inbox (threads waiting only on a
   condvar do not keep it alive).  It may be called again later, e.g. after
   native code signalled a condvar.  The thread calling it is the default
   scheduler's thread; before the first call, the program's main thread
   is.  Condvars, cpc_signal_fd and the attached primitives belong to a
   scheduler's thread; any OS thread may call cpc_spawn_continuation(_on)
   and the thread pool functions.  Using a condvar (or cpc_signal_fd) from
   a detached thread aborts with a message.  Same as
   cpc_scheduler_run(cpc_scheduler_default()). */
void cpc_main_loop(void);

/* Several cooperative schedulers (docs/multicore.md).  Each has its own
   run queue, timers, epoll set and inbox, and is driven by one OS thread
   at a time, which calls cpc_scheduler_run on it; threads of one scheduler
   run atomically with respect to each other between cooperation points,
   as with one scheduler, and in parallel with other schedulers' threads.
   A thread moves with cpc_link(s) / cpc_linked(s) and spawns on its own
   scheduler (cpc_spawn_continuation_on for another).  A cpc_sched handle
   is a scheduler or a thread pool; cpc_default_sched (NULL) given to
   cpc_link means the thread's home: the scheduler it is attached to, or
   which it came from into a pool. */
/* A new scheduler, idle until threads are queued on it and an OS thread
   runs it; NULL with errno ENOMEM, or EMFILE/ENFILE (no descriptor left
   for its epoll set and eventfd). */
cpc_sched *cpc_scheduler_new(void);
/* The scheduler cpc_main_loop runs (a static object). */
cpc_sched *cpc_scheduler_default(void);
/* The scheduler of the calling OS thread: the one it drives (the default
   one on the main thread outside any run), a detached thread's home on a
   pool worker; NULL on other threads. */
cpc_sched *cpc_scheduler_self(void);
/* Drive s on the calling OS thread until nothing can run on any scheduler
   (as cpc_main_loop).  Aborts if another OS thread drives s already. */
void cpc_scheduler_run(cpc_sched *s);
/* Free a scheduler nobody drives: 0, or -1 with errno EBUSY while threads
   are queued, sleep or wait for an fd on it, EINVAL for the default. */
int cpc_scheduler_free(cpc_sched *s);
/* How long, at most, s polls its fds without blocking before it sleeps
   when it has nothing to run (docs/multicore.md): usec microseconds, 0 to
   sleep at once.  The default is CPC_POLL_SPIN_US from the environment,
   else 0.  0, or -1 with errno EINVAL (a pool, usec out of 0..1000000). */
int cpc_scheduler_set_poll_spin(cpc_sched *s, int usec);

/* Driving a scheduler from another event loop (docs/multicore.md): watch
   cpc_scheduler_backend_fd(s) for reading, wake after at most
   cpc_scheduler_backend_timeout(s) milliseconds (-1: no timeout; 0: call
   at once), and then call cpc_scheduler_run_once(s), which expires
   timers, takes the inbox and the ready fds, and runs every thread
   runnable at that moment once, without blocking.  Always from the same
   OS thread.  run_once returns 0 once nothing can run on any scheduler
   (the host may then stop keeping its loop alive for s), non-zero
   otherwise.  backend_fd is -1 with errno if the default scheduler's
   epoll set cannot be created (ENOMEM, EMFILE, ENFILE). */
int cpc_scheduler_backend_fd(cpc_sched *s);
int cpc_scheduler_backend_timeout(cpc_sched *s);
int cpc_scheduler_run_once(cpc_sched *s);
/* wake(arg) is called when native code queues a thread on s while s is
   idle (cpc_spawn, cpc_signal, cpc_signal_all, a channel closed, ...)
   from an OS thread that is on s between two run_once calls: the host
   loop must then call run_once again, even if nothing else keeps it
   running.  Only the default scheduler is reached that way, from the
   program's main thread (on the default scheduler outside its loops):
   the host thread of another scheduler is on it only during run_once, so
   work that native code there queues on s between runs (a spawn onto s,
   a shared condvar signalled) goes through s's inbox and makes the
   backend fd readable, as work queued by other OS threads does; the
   callback is not called.  NULL removes the callback. */
void cpc_scheduler_set_wakeup(cpc_sched *s, void (*wake)(void *arg),
                              void *arg);

/* A new condvar (one reference), or NULL with errno ENOMEM. */
cpc_condvar *cpc_condvar_get(void);
cpc_condvar *cpc_condvar_retain(cpc_condvar *c);
void cpc_condvar_release(cpc_condvar *c);
/* The number of threads waiting on c (walks the wait list: O(n)). */
int cpc_condvar_count(cpc_condvar *c);
void cpc_signal(cpc_condvar *c);
void cpc_signal_all(cpc_condvar *c);
/* A condvar whose waiters may belong to any scheduler (a plain one belongs
   to the scheduler that created it, and using it from another aborts).
   Waiting, signalling, retain/release and count work from every
   scheduler's threads, and from native code; a woken thread is queued on
   its own scheduler.  Timed waits, cpc_sleep and cpc_io_wait do not
   accept one.  To check a shared condition and wait without losing a
   wake-up, hold a mutex over the check and wait with cpc_wait_unlock.
   NULL with errno ENOMEM. */
cpc_condvar *cpc_condvar_get_shared(void);
/* Wakes the threads waiting in cpc_io_wait on fd for a direction that
   meets `direction`, in wait order; their cpc_io_wait returns 0 (neither a
   direction nor CPC_CONDVAR: "woken by cpc_signal_fd"). */
void cpc_signal_fd(int fd, int direction);
/* Keep fd registered with the schedulers' epoll sets from one cpc_io_wait
   to the next, edge-triggered: a wait on a kept fd makes no system call,
   where a wait on another fd arms it again (one epoll_ctl).  For a
   connection waited on many times.  Two conditions:
    - edge-triggered semantics: a wait also returns for input (or room)
      that arrived since the previous wait, even if the program has
      consumed it meanwhile; read or write until EAGAIN, with fd
      non-blocking (cpc_setup_descriptor).  The debug runtime wakes every
      other wait on a kept fd that way, to exercise this;
    - a promise: call cpc_io_forget(fd) before closing fd -- the runtime
      cannot see close(2), and would not watch another file given the same
      number.  The debug runtime checks it at every wait and aborts naming
      the fd.
   Any OS thread; 0, or -1 with errno EBADF (fd < 0), ERANGE (fd beyond
   the descriptor limit the process had at its first keep: the fd is then
   waited on as any other) or ENOMEM (the first keep allocates a table;
   the fd is then waited on as any other). */
int cpc_io_keep(int fd);
/* End cpc_io_keep(fd), before closing it: later waits arm it again each
   time.  Threads waiting on fd meanwhile are still woken.  0, or -1 with
   errno EBADF (fd < 0). */
int cpc_io_forget(int fd);
/* 1 while fd is kept (cpc_io_keep, not yet cpc_io_forget or cpc_close),
   else 0: a library that would wait before its first read must not on a
   kept fd, whose last edge may have been taken by a wait already. */
int cpc_io_kept(int fd);
/* Close fd and wake the threads waiting on it in cpc_io_wait: their
   cpc_io_wait returns -1 with errno EBADF, in wait order -- at once on the
   calling scheduler, at the next turn of other schedulers' loops (each
   wakes its waiters of fd once it finds its registration of fd gone --
   not if the number was reused and waited on there again meanwhile).  A descriptor closed with close(2) under a waiter
   strands it for ever (epoll drops a closed descriptor without an event;
   the debug runtime detects it and aborts, naming the fd).  Detached
   threads blocked in poll(2) on fd (cpc_io_wait in a thread pool) are not
   woken: what poll does with a descriptor closed under it is the
   kernel's.  Ends cpc_io_keep(fd) too.  Returns what close(2) returns.
   Any context. */
int cpc_close(int fd);

/* A pool of at most max_threads pthreads, created as threads arrive; NULL
   with errno EINVAL (max_threads <= 0) or ENOMEM. */
cpc_sched *cpc_threadpool_get(int max_threads);
/* 0, or -1 with errno EBUSY while CPC threads are still in the pool. */
int cpc_threadpool_release(cpc_sched *s);

/* Out of memory where nothing can report it (docs/abi.md, "Running out of
   memory"): prints "cpc: out of memory allocating WHAT (N bytes)" (size 0:
   without the size) on stderr and exits with status CPC_EXIT_EXHAUSTED.  Translated code calls
   it (a boxing pass writes the call, so both modes declare it) when the environment of a cps invocation cannot be allocated:
       if (__builtin_expect(cpc_env == 0, 0))
           cpc_out_of_memory("the environment of f", sizeof *cpc_env); */
__attribute__((noreturn, cold)) void cpc_out_of_memory(const char *what,
                                                       size_t size);

/* The C library's aligned_alloc, under a name of the runtime's: translated
   code allocates with it the environment of a cps invocation that holds an
   over-aligned variable (the boxing pass writes the call, so both modes
   declare it).  A declaration of `aligned_alloc` itself in translated code
   would repeat <stdlib.h>'s or be a block-scope extern, which gcc reports
   when asked (-Wredundant-decls, -Wnested-externs) though the source has
   neither. */
extern void *cpc__aligned_alloc(size_t align, size_t size) __asm__("aligned_alloc")
    __attribute__((malloc, alloc_align(1), alloc_size(2)));

/* The storage of a variable-length array in scope at a cps call, which the
   translator moves to the heap (docs/translator.md, pass `vlas`): allocated
   where the declaration is reached by cpc_vla_new (out of memory exits as
   above), freed at every exit of its scope by cpc_vla_free(&p), the cleanup
   function of the pointer p.  Both modes define them: the translator writes
   the calls in CPC text. */
static inline void *cpc_vla_new(size_t size)
{
    void *p = __builtin_malloc(size ? size : 1);
    if (__builtin_expect(p == 0, 0))
        cpc_out_of_memory("a variable-length array", size);
    return p;
}

static inline void cpc_vla_free(void **p)
{
    __builtin_free(*p);
    *p = 0;     /* (after cpc_done(), which frees first, the scope's end is
                   never reached, but the C compiler does not know it) */
}

/* The call budget (docs/abi.md), which native code may read and clear;
   both modes declare it.  initial-exec: one load through the GOT from a
   shared library too (the runtime's thread-locals are in the static TLS
   block, see docs/install.md), instead of a call to __tls_get_addr on every
   cps entry. */
extern _Thread_local int cpc_budget __attribute__((tls_model("initial-exec")));

#ifdef __CPC_FRONTEND__
/* ---------------------------------------------------------------------- */
/* Front-end mode: the language as the programmer writes it.              */
/* ---------------------------------------------------------------------- */

/* `cps` is a type attribute: it travels with function types through
   typedefs, pointers, fields and casts.  cpcc rewrites the spelling
   __attribute__((cps)) to `cps` before parsing, in the file and in the
   headers it includes. */
#ifdef __CPC_KEEP_KEYWORDS__
/* cpcc -E: the preprocessed text keeps the language's keywords as they are
   written (a macro defined as itself expands to itself). */
#define cps cps
#define cpc_no_retain cpc_no_retain
#define cpc_need_cont cpc_need_cont
#else
#define cps __attribute__((btf_type_tag("cpc_cps")))
#define cpc_no_retain annotate("cpc_no_retain")
#define cpc_need_cont annotate("cpc_need_cont")
#endif

/* Statement keywords: the statement is the else branch, so that
   `if (c) cpc_spawn f(); else g();` keeps its meaning and break/continue
   inside the body are not captured by the expansion. */
extern int __cpc_spawn_tag;
extern int __cpc_linked_tag(cpc_sched *);
#ifdef __CPC_KEEP_KEYWORDS__
#define cpc_spawn cpc_spawn
#define cpc_spawn_on(s) cpc_spawn_on(s)
#define cpc_linked(s) cpc_linked(s)
#else
#define cpc_spawn if (__cpc_spawn_tag) ; else
/* cpc_spawn_on(s) STATEMENT: a new thread that runs STATEMENT on scheduler
   (or in pool) s.  The thread starts where cpc_spawn would start it and
   moves to s at once with cpc_link(s), before STATEMENT; s is evaluated
   there, with the free variables copied at the spawn like STATEMENT's. */
#define cpc_spawn_on(s) cpc_spawn if (cpc_link(s), 0) ; else
#define cpc_linked(s) if (__cpc_linked_tag(s)) ; else
#endif
#define cpc_detached cpc_linked(cpc_default_threadpool)
#define cpc_attached cpc_linked(cpc_default_sched)

cps void cpc_yield(void);
cps void cpc_done(void);
cps int cpc_wait(cpc_condvar *c, ...);          /* [int sec [, int usec]] */
cps int cpc_sleep(int sec, ...);                /* [int usec [, cpc_condvar *]] */
cps int cpc_io_wait(int fd, int direction, ...); /* [cpc_condvar *] */
cps cpc_sched *cpc_link(cpc_sched *s);
/* Wait on shared condvar c, unlocking m once the thread is on c's wait
   list (m is not locked again on wake-up).  Result CPC_CONDVAR. */
cps int cpc_wait_unlock(cpc_condvar *c, pthread_mutex_t *m);
/* Suspend the current thread and store its continuation in *slot. */
cps void cpc_park(cpc_continuation **slot);

cpc_sched *cpc_get_sched(void) __attribute__((cpc_need_cont));
int cpc_gettimeofday(struct timeval *tv) __attribute__((cpc_need_cont));
time_t cpc_time(time_t *t) __attribute__((cpc_need_cont));

#define cpc_is_detached() (cpc_get_sched() != cpc_default_sched)
#define cpc_attach() ((void)cpc_link(cpc_default_sched))
#define cpc_detach() ((void)cpc_link(cpc_default_threadpool))

#else /* !__CPC_FRONTEND__ */
/* ---------------------------------------------------------------------- */
/* C mode: the ABI.                                                       */
/* ---------------------------------------------------------------------- */

/* In generated C the keywords have done their work: a `cps` prototype left
   in a user header declares a native function nobody calls or defines.
   `cps` is empty, so that it is also valid where a header spells it as an
   attribute, `__attribute__((cps))` (QEMU's `#define coroutine_fn
   __attribute__((cps))`); the translator writes out a `cps` that stands
   for a type specifier (implicit int, `cps *p;`) as `int`. */
#define cps
#define cpc_no_retain __unused__
#define cpc_need_cont __unused__

typedef cpc_continuation *cpc_function(cpc_continuation *k);

struct cpc_continuation {
    cpc_continuation *cpc_next;  /* link in whichever queue holds the thread */
    unsigned int length;         /* bytes of frames in c */
    unsigned int size;           /* capacity of c */
#ifdef CPC_DEBUG
    unsigned int cpc_magic;      /* CPC_MAGIC_LIVE or CPC_MAGIC_FREED */
    unsigned int cpc_state;      /* who holds it; see runtime/cpc_debug.c */
    /* The registry of live threads that debuggers read (cpc_debug.c). */
    cpc_continuation *cpc_dbg_next, *cpc_dbg_prev;
    unsigned long long cpc_dbg_id; /* thread number, kept when k moves */
    const void *cpc_dbg_spawn;   /* return address of cpc_spawn_continuation */
#endif
    _Alignas(8) unsigned char c[];
};

/* Code compiled with -DCPC_DEBUG (cpcc --cpc-debug) sees the debug layout
   above and must be linked with libcpc_debug; other code with libcpc.  Each
   object references the marker that only the matching library defines, so
   a mix fails at link time with an undefined reference whose name says
   what to do. */
#ifdef CPC_DEBUG
extern const char cpc_built_with_cpc_debug__link_with_libcpc_debug;
__attribute__((used)) static const char *const cpc__flavour_check =
    &cpc_built_with_cpc_debug__link_with_libcpc_debug;
#else
extern const char cpc_built_without_cpc_debug__link_with_libcpc_not_libcpc_debug;
__attribute__((used)) static const char *const cpc__flavour_check =
    &cpc_built_without_cpc_debug__link_with_libcpc_not_libcpc_debug;
#endif

/* The C name of a cps function. */
#define CPC_CPS_NAME(f) f##__cps

/* Frame structs are declared between these two. */
#ifdef CPC_PACKED_FRAMES
#define CPC_FRAMES_BEGIN _Pragma("pack(push, 1)")
#else
#define CPC_FRAMES_BEGIN _Pragma("pack(push, 8)")
#endif
#define CPC_FRAMES_END _Pragma("pack(pop)")

/* Direct cps calls allowed before a bounce through the trampoline. */
#define CPC_DIRECT_BUDGET 128

/* Out of line: grow k so that `need` more bytes fit above c[length].  Never
   returns NULL (out of memory exits with a message, as above). */
cpc_continuation *cpc_continuation_grow(cpc_continuation *k, size_t need);
/* A new, empty continuation with room for `size` bytes of frames. */
cpc_continuation *cpc_continuation_new(size_t size);
void cpc_continuation_free(cpc_continuation *k);
/* Queue a new thread at the end of the run queue.  Any OS thread may call
   it; from native context before or during cpc_main_loop. */
void cpc_spawn_continuation(cpc_continuation *k);
/* Queue a new thread on scheduler s (NULL: as cpc_spawn_continuation). */
void cpc_spawn_continuation_on(cpc_sched *s, cpc_continuation *k);

/* Push a frame of struct type T; evaluates to a T* for filling it in.
   May move the continuation (k is an lvalue). */
#define CPC_PUSH(k, T) ((T *)cpc_push_frame(&(k), sizeof(T)))
/* Pop the top frame, of struct type T; evaluates to a T* which stays valid
   until the next push or return. */
#define CPC_POP(k, T) ((T *)cpc_pop_frame((k), sizeof(T)))
/* The top frame, of struct type T, left in place. */
#define CPC_TOP(k, T) ((T *)(void *)((k)->c + (k)->length - sizeof(T)))
/* The statement at a resume point of a body: memory is what another
   invocation left.  It makes no code; it stops the C compiler's analyses of
   the memory read after it (the frame's restores) from going back through
   every other resume point of the body, which cost time in the square of
   their number. */
#define CPC_RESUMED() __asm__ __volatile__("" ::: "memory")
/* Pop the top frame, of struct type T, without looking at it.  (This and
   the return path below are macros: their code takes the line of the
   statement that uses them, so an optimised `return` or closing brace keeps
   a line of its own in the line table for a debugger's breakpoints, where
   the code of an inline function would carry the header's lines.) */
#define CPC_DROP(k, T) ((void)((k)->length -= (unsigned int)sizeof(T)))
/* Copy the value returned to the frame `fr` (the top frame, or the one
   just popped) into lvalue x. */
#define CPC_RESULT(x, fr) __builtin_memcpy(&(x), (fr) + 1, sizeof(x))

static inline void *cpc_push_frame(cpc_continuation **kp, size_t n)
{
    cpc_continuation *k = *kp;
    void *frame;
    if (__builtin_expect(k->size - k->length < n, 0))
        *kp = k = cpc_continuation_grow(k, n);
    frame = k->c + k->length;
    k->length += (unsigned int)n;
    return frame;
}

static inline void *cpc_pop_frame(cpc_continuation *k, size_t n)
{
    k->length -= (unsigned int)n;
    return k->c + k->length;
}

/* `return v;` from a cps function: store v above the top frame. */
static inline cpc_continuation *cpc_return(cpc_continuation *k,
                                           const void *v, size_t n)
{
    if (__builtin_expect(k->size - k->length < n, 0))
        k = cpc_continuation_grow(k, n);
    __builtin_memcpy(k->c + k->length, v, n);
    return k;
}

/* ---- Reservation: what translated code uses ------------------------------
 *
 * A cps invocation pushes its frames and writes its return value at one
 * level, the length L0 it was entered with.  So its entry reserves room once,
 * `need` = the largest of its frames and of its return value, and its pushes
 * and returns are then unchecked:
 *
 *     union f__reserve { struct f__frame f; int ret; };
 *     if (!cpc_enter(cpc_k, sizeof(union f__reserve)))
 *         return f__defer(cpc_k, args...);
 *
 * f__defer (cold) reserves with cpc_reserve, pushes the arguments as a frame
 * that re-enters f from the trampoline, and returns the continuation: the
 * same path serves an exhausted budget and a missing reservation.  Keeping
 * every call to the allocator out of the hot path lets gcc keep the hot path
 * free of saved registers.  The debug build checks the reservation.
 */
#define CPC_MAX(a, b) ((a) > (b) ? (a) : (b))
#define CPC_COLD __attribute__((cold, noinline))
/* A leaf's deferred entry F__bounce, which gcc would drop where the leaf
   reserves no room (its entry never defers): kept, since debuggers know
   a cps function by it. */
#define CPC_KEPT __attribute__((used))
/* The dispatch functions F__dispatch[_K] of a body with many resume points
   (docs/abi.md, "stable frame": one per chunk, re-entering it at the resume
   point its frame holds) are compiled without optimisation: on a body too
   large to inline it would only turn their call into a jump. */
#if defined(__GNUC__) && !defined(__clang__)
#define CPC_RESUME_STUB __attribute__((optimize("O0")))
#else
#define CPC_RESUME_STUB
#endif
/* The other resume functions F__resume_N (the targets of
   cpc_resume_caller's tail call) are never inlined: should gcc see which
   one a frame holds where a return jumps to it, the return stays a jump
   into the caller's resume function, whose code and line table stay its
   own, and a debugger stops in it under its name and at its line. */
#define CPC_RESUME_FN __attribute__((noinline))
/* The functions cpcc writes around a body whose code holds no array, no
   variable whose address is taken, no alloca (docs/abi.md, "Stack
   protector"): no canary, which would guard nothing, under
   -fstack-protector-all too.  -DCPC_UNGUARDED= keeps their canaries. */
#ifndef CPC_UNGUARDED
#if defined(__has_attribute)
#if __has_attribute(no_stack_protector)
#define CPC_UNGUARDED __attribute__((no_stack_protector))
#endif
#endif
#endif
#ifndef CPC_UNGUARDED
#define CPC_UNGUARDED
#endif

void cpc_reservation_violated(const cpc_continuation *k, size_t n);
/* CPC_PUSH_FIRST into a continuation that is not empty, or CPC_POP_FIRST
   from one holding more than its start frame (debug build). */
void cpc_first_frame_violated(const cpc_continuation *k, size_t n);
#ifdef CPC_DEBUG
#define CPC_CHECK_RESERVED(k, n) \
    ((k)->size - (k)->length < (n) ? cpc_reservation_violated((k), (n)) : (void)0)
#else
#define CPC_CHECK_RESERVED(k, n) ((void)0)
#endif

static inline int cpc_enter(const cpc_continuation *k, size_t need)
{
    return __builtin_expect(--cpc_budget >= 0, 1) &&
           __builtin_expect(k->size - k->length >= need, 1);
}

/* The entry of a leaf, a cps function that makes no cps call: the room
   check alone.  The call budget bounds the C frames that direct calls and
   returns nest; a leaf nests one, calls nothing further, and its return
   spends a unit of the budget as every return does (docs/abi.md). */
static inline int cpc_enter_leaf(const cpc_continuation *k, size_t need)
{
    return __builtin_expect(k->size - k->length >= need, 1);
}

/* k, grown if needed so that `need` bytes fit above c[length]. */
static inline cpc_continuation *cpc_reserve(cpc_continuation *k, size_t need)
{
    if (__builtin_expect(k->size - k->length < need, 0))
        k = cpc_continuation_grow(k, need);
    return k;
}

/* Push a frame of struct type T into room reserved by cpc_enter or
   cpc_reserve: no check, no move.  (A macro, as cpc_push_reserved below,
   so that its code has the line of the statement that pushes: optimised, a
   body inlined into its entry starts with its frame's push, where a
   debugger puts `break F`, which then lies in F's code, not in this
   header.) */
#define CPC_PUSH_RESERVED(k, T) (__extension__ ({                          \
    cpc_continuation *cpc__pk = (k);                                        \
    unsigned char *cpc__frame;                                              \
    CPC_CHECK_RESERVED(cpc__pk, sizeof(T));                                 \
    cpc__frame = cpc__pk->c + cpc__pk->length;                              \
    cpc__pk->length += (unsigned int)sizeof(T);                             \
    (T *)(void *)cpc__frame; }))

static inline void *cpc_push_reserved(cpc_continuation *k, size_t n)
{
    void *frame;
    CPC_CHECK_RESERVED(k, n);
    frame = k->c + k->length;
    k->length += (unsigned int)n;
    return frame;
}

/* The shared deferred path.  A cps function F whose parameters are at most
   four integers or pointers (of at most 8 bytes) has no F__defer of its
   own: its entry's cold path passes them, converted to cpc_word, in the
   registers they came in, with a description of F's deferred entry, to
   cpc_deferN, which reserves room, pushes struct F__args as F__defer would
   and returns k to the trampoline, which calls F__bounce.  The C compiler
   then compiles one function less per cps function (docs/abi.md,
   "Deferred entry"). */
typedef unsigned long long cpc_word;
typedef struct cpc_deferral {
    cpc_function *bounce;       /* F__bounce, the frame's cpc_fn */
    unsigned int need;          /* the entry's reservation */
    unsigned char size;         /* sizeof(struct F__args) */
    unsigned char count;        /* its parameters */
    unsigned char offset[4];    /* each parameter's field in struct F__args, */
    unsigned char width[4];     /* and its size: 1, 2, 4 or 8 */
} cpc_deferral;
CPC_COLD cpc_continuation *cpc_defer0(cpc_continuation *k, const cpc_deferral *d);
CPC_COLD cpc_continuation *cpc_defer1(cpc_continuation *k, cpc_word a0, const cpc_deferral *d);
CPC_COLD cpc_continuation *cpc_defer2(cpc_continuation *k, cpc_word a0, cpc_word a1,
                             const cpc_deferral *d);
CPC_COLD cpc_continuation *cpc_defer3(cpc_continuation *k, cpc_word a0, cpc_word a1, cpc_word a2,
                             const cpc_deferral *d);
CPC_COLD cpc_continuation *cpc_defer4(cpc_continuation *k, cpc_word a0, cpc_word a1, cpc_word a2,
                             cpc_word a3, const cpc_deferral *d);

/* What a cps function that has returned (its value written, its frame
   dropped) returns; k is a variable (cpc_k).  Optimised translated code
   runs its caller's resume function at once, as a tail call, under the
   same call budget as a cps call: so a call and its return cost no pass
   through the trampoline, whose one indirect call site for every frame
   predicts badly, and the C stack stays bounded (a return that gcc cannot
   make a tail call nests one C frame, at most CPC_DIRECT_BUDGET of them).
   The resume functions it jumps to are never inlined (CPC_RESUME_FN), so a
   debugger sees each in its own code, under its name.  -DCPC_NO_DIRECT_RETURN,
   unoptimised and debug code return k to the trampoline, which checks each
   frame it runs (CPC_DEBUG) and keeps one C frame per cps call for
   debuggers (and a debugger steps into nothing: it is a macro). */
#if defined(__OPTIMIZE__) && !defined(CPC_DEBUG) && !defined(CPC_NO_DIRECT_RETURN)
#define cpc_resume_caller(k) CPC_RESUME_AT((k), (k)->c + (k)->length)
/* (top: k->c + k->length, known to the caller) */
#define CPC_RESUME_AT(k, top)                                               \
    (__builtin_expect((top) != (k)->c, 1) &&                                \
     __builtin_expect(--cpc_budget >= 0, 1) ? CPC_FUNCTION_AT(top)(k) : (k))
/* `return v;` from translated code: v (a pointer to n bytes) above the top
   frame (room reserved by the entry), then on to the caller
   (cpc_resume_caller); k is a variable.  (The length is read once: the
   copy of v could otherwise be taken to change it.) */
#define cpc_return_reserved(k, v, n) (__extension__ ({                      \
    unsigned char *cpc__top = (k)->c + (k)->length;                         \
    __builtin_memcpy(cpc__top, (v), (n));                                   \
    CPC_RESUME_AT((k), cpc__top); }))
#else
#define cpc_resume_caller(k) (k)
/* (one expression, no block: at -O0 gdb would see the line of a `return`
   twice, once in the block) */
#define cpc_return_reserved(k, v, n)                                        \
    (CPC_CHECK_RESERVED((k), (n)),                                          \
     (void)__builtin_memcpy((k)->c + (k)->length, (v), (n)), (k))
#endif
/* The function of the frame ending at top (a frame of packed layout may
   leave it unaligned). */
#define CPC_FUNCTION_AT(top) (__extension__ ({                              \
    cpc_function *cpc__fn;                                                  \
    __builtin_memcpy(&cpc__fn, (top) - sizeof cpc__fn, sizeof cpc__fn);     \
    cpc__fn; }))

/* Push the first frame, of struct type T, into a continuation fresh from
   cpc_continuation_new(sizeof(T)) (a spawn's arguments): its length is 0,
   so the frame is at c[0] without reading it. */
#define CPC_PUSH_FIRST(k, T) ((T *)cpc_push_first((k), sizeof(T)))

#ifdef CPC_DEBUG
#define CPC_CHECK_FIRST(k, n) \
    ((k)->length != 0 ? cpc_first_frame_violated((k), (n)) : CPC_CHECK_RESERVED((k), (n)))
#else
#define CPC_CHECK_FIRST(k, n) ((void)0)
#endif

static inline void *cpc_push_first(cpc_continuation *k, size_t n)
{
    CPC_CHECK_FIRST(k, n);
    k->length = (unsigned int)n;
    return k->c;
}

/* Pop the only frame of k, of struct type T: a thread's start frame,
   pushed by CPC_PUSH_FIRST.  It is at c[0], and k is empty after. */
#define CPC_POP_FIRST(k, T) ((T *)cpc_pop_first((k), sizeof(T)))

#ifdef CPC_DEBUG
#define CPC_CHECK_ONLY(k, n) \
    ((k)->length != (n) ? cpc_first_frame_violated((k), (n)) : (void)0)
#else
#define CPC_CHECK_ONLY(k, n) ((void)(n))
#endif

static inline void *cpc_pop_first(cpc_continuation *k, size_t n)
{
    CPC_CHECK_ONLY(k, n);
    k->length = 0;
    return k->c;
}

/* The function of the top frame. */
static inline cpc_function *cpc_top_function(const cpc_continuation *k)
{
    return CPC_FUNCTION_AT(k->c + k->length);
}

/* The cps primitives (C entry points with every argument explicit).
   Results, written above the top frame:
     cpc_wait      CPC_CONDVAR or CPC_TIMEOUT
     cpc_sleep     CPC_TIMEOUT or CPC_CONDVAR (c may be NULL)
     cpc_io_wait   the ready directions among `direction` (CPC_IO_IN,
                   CPC_IO_OUT or both; an error or hang-up on the fd counts
                   as ready both ways), CPC_CONDVAR (c may be NULL), 0 when
                   woken by cpc_signal_fd, or -1 with errno: EBADF for a bad
                   fd or one closed by cpc_close while the thread waited,
                   EINVAL for a bad direction, ENOMEM when the
                   scheduler's table of fds cannot grow to hold fd.  A
                   regular file is always ready.
     cpc_link      the previous scheduler (cpc_sched *)
   Detached (in a thread pool): cpc_yield returns at once, cpc_sleep and
   cpc_io_wait block like nanosleep and poll, cpc_wait and the condvar
   arguments abort with a message.
   A condvar released while threads wait on it stays allocated until the
   last of them leaves (by timeout or fd); a waiter with no other event is
   stranded. */
cpc_continuation *cpc_yield__cps(cpc_continuation *k);
/* Optimised code yields inline (docs/abi.md, "The run queue").  Called
   from the trampoline of a scheduler's main loop (cpc__tls_direct: the
   scheduler whose loop runs this OS thread's cps code, with no
   cpc_continuation_run nested in it), a yield switches directly: k goes
   to the tail of that scheduler's run queue and the thread at its head
   is returned, for the trampoline to run next (a cps function returns
   "the continuation to run next").  When nobody else can run, and
   anywhere else, it calls the function.  Outside a loop cpc__tls_direct
   is not NULL but an empty, read-only run queue whose condvar key no
   condvar carries: the tests of an empty queue and of a condvar's key
   send the inline primitives to their functions there, with no test of
   their own (one compare and branch fewer each).  A scheduler's
   state starts with its run queue (runtime/cpc_internal.h, struct
   cpc_sched, whose first fields are these), which only the OS thread
   driving it touches.  Unoptimised and debug code call the function (a
   debugger steps over it, and the debug runtime checks the ownership of
   k). */
struct cpc__sched_head {
    unsigned int kind, cv_key;
    cpc_continuation *runq_head;
    cpc_continuation **runq_tail;
};
/* The start of a condvar, as the inline signal below reads it. */
struct cpc__condvar_head {
    cpc_continuation *head;
    cpc_continuation **tail;
    int refcount;
    unsigned long long magic_nremovable; /* the magic in the low half */
};
#ifndef CPC__RUNTIME
extern _Thread_local struct cpc__sched_head *cpc__tls_direct
    __attribute__((tls_model("initial-exec")));
#endif
#if defined(__OPTIMIZE__) && !defined(CPC_DEBUG) && !defined(CPC__RUNTIME)
/* A macro, not an inline function, so that its code carries the line of
   the cpc_yield that uses it: gdb's line table then has that line, and a
   breakpoint or a step there has an instruction to stop at (tests/debug),
   as with the return path's macros. */
#define cpc_yield__cps(k) __extension__ ({                                   \
    struct cpc__sched_head *cpc__yield_s = cpc__tls_direct;                \
    cpc_continuation *cpc__yield_k = (k);                                  \
    cpc_continuation *cpc__yield_next = cpc__yield_s->runq_head;           \
    if (__builtin_expect(cpc__yield_next == 0, 0)) {                       \
        cpc__yield_next = (cpc_yield__cps)(cpc__yield_k);                  \
    } else {                                                               \
        cpc__yield_k->cpc_next = 0;                                        \
        *cpc__yield_s->runq_tail = cpc__yield_k;                           \
        cpc__yield_s->runq_tail = &cpc__yield_k->cpc_next;                 \
        cpc__yield_s->runq_head = cpc__yield_next->cpc_next;               \
    }                                                                      \
    cpc__yield_next; })
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Optimised code signals inline too, in the same conditions: a condvar of
   the scheduler whose loop runs (its magic is that scheduler's key) with
   no removable waiter (a timed wait, cpc_sleep or cpc_io_wait) -- one
   compare of the two as a 64-bit word, the magic in its low half -- has
   its first waiter moved to the tail of that scheduler's run queue.
   Anything else (NULL, a shared condvar, another scheduler's, a freed
   one, no loop) calls the function, which checks and says what is wrong.
   A condvar starts with its wait list, then its magic and count of
   removable waiters (runtime/cpc_condvar.c, struct cpc_condvar, checked
   there). */
#define cpc_signal(c) __extension__ ({                                      \
    cpc_condvar *cpc__sig_c = (c);                                         \
    struct cpc__sched_head *cpc__sig_s = cpc__tls_direct;                  \
    struct cpc__condvar_head *cpc__sig_h =                                 \
        (struct cpc__condvar_head *)(void *)cpc__sig_c;                    \
    if (__builtin_expect(cpc__sig_h != 0 &&                                \
                         cpc__sig_h->magic_nremovable ==                   \
                             cpc__sig_s->cv_key, 1)) {                     \
        cpc_continuation *cpc__sig_k = cpc__sig_h->head;                   \
        if (cpc__sig_k != 0) {                                             \
            cpc__sig_h->head = cpc__sig_k->cpc_next;                       \
            cpc__sig_k->cpc_next = 0;                                      \
            if (cpc__sig_s->runq_head != 0)                                \
                *cpc__sig_s->runq_tail = cpc__sig_k;                       \
            else                                                           \
                cpc__sig_s->runq_head = cpc__sig_k;                        \
            cpc__sig_s->runq_tail = &cpc__sig_k->cpc_next;                 \
        }                                                                  \
    } else {                                                               \
        (cpc_signal)(cpc__sig_c);                                          \
    }                                                                      \
    (void)0; })
#endif
/* And spawns inline: in a scheduler's loop, a continuation holding a
   frame goes to the tail of that scheduler's run queue when it is not
   empty; anywhere else (a pool worker, native code, a nested run), to an
   empty queue, and for NULL or an empty continuation, the function queues
   it or says what is wrong. */
#define cpc_spawn_continuation(k) __extension__ ({                          \
    cpc_continuation *cpc__sp_k = (k);                                     \
    struct cpc__sched_head *cpc__sp_s = cpc__tls_direct;                   \
    if (__builtin_expect(cpc__sp_k != 0 && cpc__sp_k->length != 0 &&       \
                         cpc__sp_s->runq_head != 0, 1)) {                  \
        cpc__sp_k->cpc_next = 0;                                           \
        *cpc__sp_s->runq_tail = cpc__sp_k;                                 \
        cpc__sp_s->runq_tail = &cpc__sp_k->cpc_next;                       \
    } else {                                                               \
        (cpc_spawn_continuation)(cpc__sp_k);                               \
    }                                                                      \
    (void)0; })
#endif
cpc_continuation *cpc_done__cps(cpc_continuation *k);
/* sec < 0: no timeout */
cpc_continuation *cpc_wait__cps(cpc_continuation *k, cpc_condvar *c,
                                int sec, int usec);
/* cpc_wait(c) without a timeout: what cpc_wait__cps does for sec < 0,
   without passing or testing a timeout.  Translated code writes an untimed
   wait as cpc_wait__cps(k, c, -1, 0); the macro sends a call whose sec is
   a negative constant here (4 instructions fewer per wait), any other to
   the function (the name in parentheses, or its address, is the
   function). */
cpc_continuation *cpc_wait_plain__cps(cpc_continuation *k, cpc_condvar *c);
#define cpc_wait__cps(k, c, sec, usec)                                  \
    (__builtin_constant_p((sec) < 0) && (sec) < 0                       \
         ? cpc_wait_plain__cps((k), (c))                                \
         : (cpc_wait__cps)((k), (c), (sec), (usec)))
/* The untimed wait for a caller whose entry reserved room for its record,
   CPC_WAIT_RECORD bytes above the frame it waits in (a tail call's wait,
   its frame dropped, has that room too): cpc_wait_plain__cps without the
   room test.  Translated code writes cpc_wait_reserved__cps(k, c, -1, 0)
   for a cpc_wait in a cps function with a frame, whose union F__reserve
   then holds the frame and the record (docs/abi.md); the macro sends the
   call on as cpc_wait__cps's does.  The debug runtime checks the
   reservation. */
#define CPC_WAIT_RECORD 8
cpc_continuation *cpc_wait_plain_reserved__cps(cpc_continuation *k,
                                               cpc_condvar *c);
#define cpc_wait_reserved__cps(k, c, sec, usec)                         \
    (__builtin_constant_p((sec) < 0) && (sec) < 0                       \
         ? cpc_wait_plain_reserved__cps((k), (c))                       \
         : (cpc_wait__cps)((k), (c), (sec), (usec)))
cpc_continuation *cpc_sleep__cps(cpc_continuation *k, int sec, int usec,
                                 cpc_condvar *c);
cpc_continuation *cpc_io_wait__cps(cpc_continuation *k, int fd, int direction,
                                   cpc_condvar *c);
cpc_continuation *cpc_link__cps(cpc_continuation *k, cpc_sched *s);
cpc_continuation *cpc_wait_unlock__cps(cpc_continuation *k, cpc_condvar *c,
                                       pthread_mutex_t *m);
cpc_continuation *cpc_park__cps(cpc_continuation *k, cpc_continuation **slot);

/* Run k -- new (cpc_continuation_new, frames pushed) or parked -- on the
   calling OS thread until it suspends (returns NULL: parked again, or
   handed to the scheduler) or its frames run out (returns k, empty; the
   caller frees it or pushes new frames and runs it again).  Any context. */
cpc_continuation *cpc_continuation_run(cpc_continuation *k);

/* cpc_need_cont functions: k is the current continuation, NULL from native
   context. */
cpc_sched *cpc_get_sched(cpc_continuation *k);
int cpc_gettimeofday(cpc_continuation *k, struct timeval *tv);
time_t cpc_time(cpc_continuation *k, time_t *t);

#endif /* !__CPC_FRONTEND__ */

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif /* CPC_RUNTIME_H */
