/*
 * cpc_debug.c -- fatal errors, symbol names, and the one-shot checks of the
 * debug runtime (-DCPC_DEBUG, libcpc_debug.a).
 *
 * One-shot discipline.  Each continuation carries a magic number and a
 * state: NEW (allocated, not yet spawned), RUNNING (a trampoline runs it),
 * SUSPENDED (a queue, condvar, the timer heap, an fd list or a pool holds
 * it), PARKED (cpc_park gave it to a backend), FREED.  Handing a
 * continuation to the runtime requires RUNNING (a primitive) or NEW or
 * PARKED (a spawn); taking it from a queue to run requires SUSPENDED;
 * cpc_continuation_run takes NEW or PARKED, and gives a continuation whose
 * frames ran out back as NEW.  Anything else is a continuation resumed
 * twice.  Freed
 * continuations are not given back at once: they wait, marked FREED with
 * their frames intact, in a bounded FIFO quarantine, so a use after free is
 * caught (and the thread's top frame can still be named) as long as the
 * buffer is in quarantine.
 *
 * The registry.  The debug build also keeps every live continuation on a
 * doubly linked list, cpc__dbg_threads (oldest first), with a thread
 * number and the spawn site, and every live condvar on another,
 * cpc__dbg_condvars (cpc_condvar.c), for gdb's `info cpc-threads`
 * (tools/gdb/cpc-gdb.py), which otherwise finds threads by walking the
 * run queue, the timer heap, the fd lists and the pools, and cannot see a
 * plain condvar waiter.  The release build records nothing.  (The header
 * stays 8 modulo 16 bytes long, like the release one, so that a
 * continuation's capacity is rounded alike.)
 *
 * gdb.  Every build names the gdb extension in a .debug_gdb_scripts
 * section (not loaded at run time), so gdb loads it for any CPC program
 * once its directory is in gdb's auto-load safe-path (docs/debugging.md).
 *
 * Names.  Frame functions are mostly static, which dladdr cannot see, so
 * the address is looked up in the .symtab of /proc/self/exe (mapped once,
 * corrected by the executable's load bias); dladdr is the fallback for
 * shared objects, and the bare address the last resort.
 */
#define _GNU_SOURCE
#include "cpc_internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef CPC_GDB_SCRIPT
/* Entry kind 1: the file name of a Python script. */
__asm__(".pushsection \".debug_gdb_scripts\", \"MS\",@progbits,1\n"
        ".byte 1\n"
        ".asciz \"" CPC_GDB_SCRIPT "\"\n"
        ".popsection\n");
#endif

/* `cpc: MESSAGE` on stderr, at once. */
static void report(const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "cpc: %s\n", buf);
    fflush(stderr);
}

void cpc__fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(fmt, ap);
    va_end(ap);
    abort();
}

/* Running out of memory (or of descriptors, or threads) is no bug of the
   program's: a message and an exit status say so, without the core file
   of an abort.  What the program printed is flushed; atexit handlers do
   not run (other OS threads -- pool workers, other schedulers -- may still
   be running CPC threads). */
void cpc__exhausted(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    va_start(ap, fmt);
    report(fmt, ap);
    va_end(ap);
    _exit(CPC_EXIT_EXHAUSTED);
}

void cpc_out_of_memory(const char *what, size_t size)
{
    if (size == 0)
        cpc__exhausted("out of memory allocating %s", what);
    cpc__exhausted("out of memory allocating %s (%zu bytes)", what, size);
}

/* ---- symbol names ------------------------------------------------------------ */

static int dbg_bias_cb(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uintptr_t *)data = info->dlpi_addr;
    return 1;                   /* the first object is the executable */
}

/* Look addr up in the executable's .symtab.  Returns false if not found. */
static bool dbg_elf_lookup(uintptr_t addr, char *buf, size_t len)
{
    static const unsigned char *image;
    static size_t image_size;
    static bool tried;
    static uintptr_t bias;

    if (!tried) {
        tried = true;
        int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
            void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE,
                           fd, 0);
            if (p != MAP_FAILED) {
                image = p;
                image_size = (size_t)st.st_size;
            }
        }
        if (fd >= 0)
            close(fd);
        dl_iterate_phdr(dbg_bias_cb, &bias);
    }
    if (image == NULL || image_size < sizeof(ElfW(Ehdr)))
        return false;
    const ElfW(Ehdr) *eh = (const void *)image;
    if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
        eh->e_shoff == 0 ||
        eh->e_shoff + (size_t)eh->e_shnum * sizeof(ElfW(Shdr)) > image_size)
        return false;
    const ElfW(Shdr) *sh = (const void *)(image + eh->e_shoff);
    uintptr_t target = addr - bias;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
            continue;
        const ElfW(Shdr) *strs = &sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > image_size ||
            strs->sh_offset + strs->sh_size > image_size)
            return false;
        const ElfW(Sym) *sym = (const void *)(image + sh[i].sh_offset);
        size_t nsym = sh[i].sh_size / sizeof(ElfW(Sym));
        const char *names = (const char *)(image + strs->sh_offset);
        for (size_t j = 0; j < nsym; j++) {
            if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC ||
                sym[j].st_name >= strs->sh_size)
                continue;
            uintptr_t lo = sym[j].st_value;
            uintptr_t hi = lo + (sym[j].st_size ? sym[j].st_size : 1);
            if (target >= lo && target < hi) {
                if (target == lo)
                    snprintf(buf, len, "%s", names + sym[j].st_name);
                else
                    snprintf(buf, len, "%s+0x%lx", names + sym[j].st_name,
                             (unsigned long)(target - lo));
                return true;
            }
        }
    }
    return false;
}

const char *cpc__dbg_symbol_name(const void *f, char *buf, size_t len)
{
    Dl_info info;
    if (dbg_elf_lookup((uintptr_t)f, buf, len))
        return buf;
    if (dladdr(f, &info) != 0 && info.dli_sname != NULL) {
        snprintf(buf, len, "%s", info.dli_sname);
        return buf;
    }
    snprintf(buf, len, "%p", f);
    return buf;
}

/* Name of the thread's top frame function, for messages. */
static const char *dbg_top_name(const cpc_continuation *k, char *buf,
                                size_t len)
{
    if (k->length < sizeof(cpc_function *) || k->length > k->size) {
        snprintf(buf, len, "<no frame: the thread had ended>");
        return buf;
    }
    return cpc__dbg_symbol_name((const void *)cpc_top_function(k), buf, len);
}

/* A translated cps function pushed or returned more than its entry
   reserved (checked by code compiled with -DCPC_DEBUG): a translator bug,
   caught before it corrupts the heap. */
void cpc_reservation_violated(const cpc_continuation *k, size_t n)
{
    char name[256];
    cpc__fatal("continuation %p: %zu bytes written beyond the room reserved at "
               "entry (length %u, size %u; thread's top frame: %s)",
               (const void *)k, n, k->length, k->size,
               dbg_top_name(k, name, sizeof name));
}

void cpc_first_frame_violated(const cpc_continuation *k, size_t n)
{
    cpc__fatal("continuation %p: a thread's start frame of %zu bytes taken at "
               "c[0], but the continuation holds %u bytes of frames (size %u)",
               (const void *)k, n, k->length, k->size);
}

#ifdef CPC_DEBUG
/* ---- one-shot checks ------------------------------------------------------------ */

#define DBG_QUARANTINE 4096

static pthread_mutex_t dbg_lock = PTHREAD_MUTEX_INITIALIZER;
static cpc_continuation *dbg_quarantine[DBG_QUARANTINE];
static size_t dbg_qnext;

CPC_NORETURN static void dbg_die(cpc_continuation *k, const char *what)
{
    char name[256];
    cpc__fatal("continuation %p %s (thread's top frame: %s)", (void *)k, what,
               dbg_top_name(k, name, sizeof name));
}

static void dbg_check_magic(cpc_continuation *k)
{
    if (k == NULL)
        cpc__fatal("NULL continuation");
    if (k->cpc_magic == CPC_MAGIC_FREED || k->cpc_state == CPC_ST_FREED)
        dbg_die(k, "used after free");
    if (k->cpc_magic != CPC_MAGIC_LIVE)
        cpc__fatal("continuation %p is corrupt or was never allocated by "
                   "cpc_continuation_new (bad magic 0x%x)", (void *)k,
                   k->cpc_magic);
}

/* ---- the registry of live threads ------------------------------------------ */

cpc_continuation *cpc__dbg_threads;       /* oldest first; dbg_lock */
static cpc_continuation *dbg_threads_last;
static uint64_t dbg_thread_ids;

void cpc__dbg_init(cpc_continuation *k)
{
    k->cpc_magic = CPC_MAGIC_LIVE;
    k->cpc_state = CPC_ST_NEW;
    k->cpc_dbg_spawn = NULL;
    k->cpc_dbg_next = NULL;
    pthread_mutex_lock(&dbg_lock);
    k->cpc_dbg_id = ++dbg_thread_ids;
    k->cpc_dbg_prev = dbg_threads_last;
    if (dbg_threads_last != NULL)
        dbg_threads_last->cpc_dbg_next = k;
    else
        cpc__dbg_threads = k;
    dbg_threads_last = k;
    pthread_mutex_unlock(&dbg_lock);
}

/* Put `to` in place of `from` in the registry (to == NULL: remove from).
   A continuation out of the registry has id 0.  Caller holds dbg_lock. */
static void dbg_replace(cpc_continuation *from, cpc_continuation *to)
{
    if (from->cpc_dbg_id == 0)
        return;
    cpc_continuation *prev = from->cpc_dbg_prev, *next = from->cpc_dbg_next;
    if (to != NULL) {
        to->cpc_dbg_prev = prev;
        to->cpc_dbg_next = next;
        to->cpc_dbg_id = from->cpc_dbg_id;
        to->cpc_dbg_spawn = from->cpc_dbg_spawn;
    }
    cpc_continuation *self = to != NULL ? to : next;
    if (prev != NULL)
        prev->cpc_dbg_next = self;
    else
        cpc__dbg_threads = self;
    self = to != NULL ? to : prev;
    if (next != NULL)
        next->cpc_dbg_prev = self;
    else
        dbg_threads_last = self;
    from->cpc_dbg_id = 0;
}

void cpc__dbg_suspend(cpc_continuation *k, bool spawn)
{
    dbg_check_magic(k);
    switch (k->cpc_state) {
    case CPC_ST_NEW:
        if (spawn)
            break;
        /* A primitive called on a continuation nobody is running. */
        dbg_die(k, "resumed twice: suspended before it ever ran");
    case CPC_ST_PARKED:
        if (spawn)
            break;              /* a backend gives a parked thread back */
        dbg_die(k, "resumed twice: suspended while parked");
    case CPC_ST_RUNNING:
        if (!spawn)
            break;
        dbg_die(k, "resumed twice: spawned while already running");
    case CPC_ST_SUSPENDED:
        dbg_die(k, "resumed twice: queued while already queued or waiting");
    default:
        cpc__fatal("continuation %p has a bad state %u", (void *)k,
                   k->cpc_state);
    }
    k->cpc_state = CPC_ST_SUSPENDED;
}

/* k goes from state `from` to state `to`: dies with `again` when k is in
   `to` already, with `elsewhere` when it is in any state but `from`. */
static void dbg_move(cpc_continuation *k, unsigned from, unsigned to,
                     const char *again, const char *elsewhere)
{
    dbg_check_magic(k);
    if (k->cpc_state == to)
        dbg_die(k, again);
    if (k->cpc_state != from)
        dbg_die(k, elsewhere);
    k->cpc_state = to;
}

void cpc__dbg_resume(cpc_continuation *k)
{
    dbg_move(k, CPC_ST_SUSPENDED, CPC_ST_RUNNING, "resumed twice: resumed while already running",
             "resumed twice: run without being queued");
}

void cpc__dbg_check_running(cpc_continuation *k)
{
    dbg_check_magic(k);
    if (k->cpc_state != CPC_ST_RUNNING)
        dbg_die(k, "resumed twice: returned to the trampoline while queued "
                   "or waiting elsewhere");
}

void cpc__dbg_park(cpc_continuation *k)
{
    dbg_move(k, CPC_ST_RUNNING, CPC_ST_PARKED, "resumed twice: parked while already parked",
             "resumed twice: parked while queued or waiting elsewhere");
}

void cpc__dbg_run_start(cpc_continuation *k)
{
    dbg_check_magic(k);
    if (k->cpc_state == CPC_ST_RUNNING)
        dbg_die(k, "resumed twice: run while already running");
    if (k->cpc_state == CPC_ST_SUSPENDED)
        dbg_die(k, "resumed twice: run while queued or waiting");
    if (k->cpc_state != CPC_ST_NEW && k->cpc_state != CPC_ST_PARKED)
        cpc__fatal("continuation %p has a bad state %u", (void *)k,
                  k->cpc_state);
    k->cpc_state = CPC_ST_RUNNING;
}

void cpc__dbg_run_end(cpc_continuation *k)
{
    cpc__dbg_check_running(k);
    k->cpc_state = CPC_ST_NEW;
}

void cpc__dbg_moved(cpc_continuation *from, cpc_continuation *to)
{
    dbg_check_magic(from);
    to->cpc_magic = CPC_MAGIC_LIVE;
    to->cpc_state = from->cpc_state;
    pthread_mutex_lock(&dbg_lock);
    dbg_replace(from, to);
    pthread_mutex_unlock(&dbg_lock);
}

bool cpc__dbg_free(cpc_continuation *k)
{
    dbg_check_magic(k);
    k->cpc_magic = CPC_MAGIC_FREED;
    k->cpc_state = CPC_ST_FREED;
    pthread_mutex_lock(&dbg_lock);
    dbg_replace(k, NULL);
    cpc_continuation *old = dbg_quarantine[dbg_qnext];
    dbg_quarantine[dbg_qnext] = k;
    dbg_qnext = (dbg_qnext + 1) % DBG_QUARANTINE;
    pthread_mutex_unlock(&dbg_lock);
    free(old);
    return true;
}
#endif /* CPC_DEBUG */
