/* cache.c -- httpd's cache of small files; see cache.h. */
#define _GNU_SOURCE
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <sys/inotify.h>
#include <sys/syscall.h>

struct slot {
    char *key;                  /* rel, then '/' when it had a trailing slash */
    char *opened;               /* the path the file was opened under */
    struct cached_file file;
    struct stat st;             /* of the file when it was read */
    int watched;                /* validated by the watcher, not by a stat */
};

static __thread struct slot slots[FILE_CACHE_SLOTS];
static long hits;               /* all threads' (__atomic) */

/* The watcher (see cache.h).  Each OS thread has its own inotify
   descriptor, owned by that thread (F_OWNER_TID): the kernel queues an
   event inside the system call that changes a watched file, directory
   entry or attribute, and sends the owner SIGIO there and then; the owner
   runs the handler before it next returns to user code, so before any
   request sent after the change has been read.  The handler only raises
   the thread's flag; the next lookup drops every watched entry and the
   descriptor (with all its watches), and starts afresh. */
static int watching_on = 1;                 /* file_cache_watching() */
static __thread int watch_fd = -1;          /* -1: none yet */
static __thread int watch_failed;           /* this thread stats instead */
static __thread volatile sig_atomic_t watch_fired;
static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static int handler_ok;

static void on_sigio(int sig)
{
    (void)sig;
    watch_fired = 1;            /* whichever thread it lands on: a flush */
}

static void install_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigio;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    handler_ok = sigaction(SIGIO, &sa, NULL) == 0;
}

void file_cache_watching(int on)
{
    __atomic_store_n(&watching_on, on, __ATOMIC_RELAXED);
}

int file_cache_watched(void)
{
    int n = 0;
    for (int i = 0; i < FILE_CACHE_SLOTS; i++)
        n += slots[i].watched;
    return n;
}

long file_cache_hits(void)
{
    return __atomic_load_n(&hits, __ATOMIC_RELAXED);
}

/* FNV-1a of the key rel + (trailing_slash ? "/" : ""). */
static size_t slot_of(const char *rel, int trailing_slash)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)rel; *p; p++)
        h = (h ^ *p) * 16777619u;
    if (trailing_slash)
        h = (h ^ '/') * 16777619u;
    return h % FILE_CACHE_SLOTS;
}

static int key_is(const struct slot *s, const char *rel, int trailing_slash)
{
    size_t n = strlen(rel);
    return s->key != NULL && strncmp(s->key, rel, n) == 0 &&
           s->key[n] == (trailing_slash ? '/' : '\0') &&
           (!trailing_slash || s->key[n + 1] == '\0');
}

static int same_time(struct timespec a, struct timespec b)
{
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* Whether st describes the very file, unchanged, that s holds. */
static int unchanged(const struct slot *s, const struct stat *st)
{
    return S_ISREG(st->st_mode) && st->st_dev == s->st.st_dev &&
           st->st_ino == s->st.st_ino && (size_t)st->st_size == s->file.size &&
           same_time(st->st_mtim, s->st.st_mtim) && same_time(st->st_ctim, s->st.st_ctim);
}

static void slot_clear(struct slot *s)
{
    free(s->key);
    free(s->opened);
    free((char *)s->file.data);
    memset(s, 0, sizeof *s);
}

/* Something watched changed: forget every watched entry and the
   descriptor, so that no watch outlives its entry. */
static void watch_flush(void)
{
    watch_fired = 0;
    for (int i = 0; i < FILE_CACHE_SLOTS; i++)
        if (slots[i].watched)
            slot_clear(&slots[i]);
    if (watch_fd >= 0)
        close(watch_fd);
    watch_fd = -1;
}

/* This thread's inotify descriptor, made on first use; -1 when watching
   is off or unavailable here (the entries are then checked by a stat). */
static int watcher(void)
{
    if (!__atomic_load_n(&watching_on, __ATOMIC_RELAXED) || watch_failed)
        return -1;
    if (watch_fd >= 0)
        return watch_fd;
    pthread_once(&handler_once, install_handler);
    struct f_owner_ex owner = { F_OWNER_TID, (pid_t)syscall(SYS_gettid) };
    int fd = handler_ok ? inotify_init1(IN_NONBLOCK | IN_CLOEXEC) : -1;
    if (fd >= 0 &&
        (fcntl(fd, F_SETOWN_EX, &owner) < 0 ||
         fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) < 0)) {
        close(fd);
        fd = -1;
    }
    if (fd < 0) {
        watch_failed = 1;
        return -1;
    }
    return watch_fd = fd;
}

static int watch_path(int root_fd, const struct slot *s);

#define WATCH_DIR (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | \
                   IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF)
#define WATCH_FILE (IN_MODIFY | IN_ATTRIB | IN_MOVE_SELF | IN_DELETE_SELF)

/* Watch the root, every directory on the path `opened` and the file:
   any change to what a stat of the path would look at raises the flag.
   Then check that the path, resolved without symbolic links (which would
   name directories outside those watched), still leads to the file s
   holds, unchanged: a change made before the watches were in place is
   seen there.  1 when s is watched.  The watches of an entry that is
   replaced stay until the next flush; when the kernel refuses more
   (ENOSPC, fs.inotify.max_user_watches), the flush is made now, and s is
   checked by a stat. */
static int watch_entry(int root_fd, const struct slot *s)
{
    int ok = watch_path(root_fd, s);
    if (!ok && errno == ENOSPC)
        watch_flush();
    if (!ok)
        return 0;
    struct open_how how;
    struct stat st;
    memset(&how, 0, sizeof how);
    how.flags = O_PATH | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV;
    long f = syscall(SYS_openat2, root_fd, *s->opened ? s->opened : ".", &how, sizeof how);
    if (f < 0)
        return 0;
    int same = fstat((int)f, &st) == 0 && unchanged(s, &st);
    close((int)f);
    return same;
}

/* The watches of watch_entry; 1, or 0 with errno. */
static int watch_path(int root_fd, const struct slot *s)
{
    char path[PATH_MAX];
    int fd = watcher(), n;
    if (fd < 0) {
        errno = ENOSYS;
        return 0;
    }
    n = snprintf(path, sizeof path, "/proc/self/fd/%d/", root_fd);
    if (n < 0 || (size_t)n + strlen(s->opened) >= sizeof path) {
        errno = ENAMETOOLONG;
        return 0;
    }
    if (inotify_add_watch(fd, path, WATCH_DIR) < 0)
        return 0;
    strcpy(path + n, s->opened);
    for (char *p = path + n; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int wd = inotify_add_watch(fd, path, WATCH_DIR | IN_ONLYDIR);
        *p = '/';
        if (wd < 0)
            return 0;
    }
    return !*s->opened || inotify_add_watch(fd, path, WATCH_FILE) >= 0;
}

const struct cached_file *file_cache_get(int root_fd, const char *rel,
                                         int trailing_slash, struct stat *st)
{
    if (watch_fired)
        watch_flush();
    struct slot *s = &slots[slot_of(rel, trailing_slash)];
    if (!key_is(s, rel, trailing_slash))
        return NULL;
    if (s->watched)
        *st = s->st;
    else if (fstatat(root_fd, *s->opened ? s->opened : ".", st, 0) < 0 ||
             !unchanged(s, st)) {
        slot_clear(s);
        return NULL;
    }
    __atomic_add_fetch(&hits, 1, __ATOMIC_RELAXED);
    return &s->file;
}

/* Changed at least FILE_CACHE_SETTLE_S seconds ago (a time in the future
   is not settled either). */
static int settled(const struct stat *st, time_t now)
{
    return st->st_mtim.tv_sec <= now - FILE_CACHE_SETTLE_S &&
           st->st_ctim.tv_sec <= now - FILE_CACHE_SETTLE_S;
}

const struct cached_file *file_cache_put(int root_fd, const char *rel,
                                         int trailing_slash, const char *opened,
                                         int fd, const struct stat *st, time_t now)
{
    if (!S_ISREG(st->st_mode) || st->st_size > FILE_CACHE_MAX || !settled(st, now))
        return NULL;
    if (watch_fired)
        watch_flush();
    struct slot *s = &slots[slot_of(rel, trailing_slash)];
    slot_clear(s);
    size_t n = strlen(rel), size = (size_t)st->st_size;
    char *key = malloc(n + 2), *op = strdup(opened);
    char *data = malloc(size ? size : 1);
    if (key == NULL || op == NULL || data == NULL ||
        pread(fd, data, size, 0) != (ssize_t)size) {
        free(key);
        free(op);
        free(data);
        return NULL;
    }
    memcpy(key, rel, n);
    key[n] = trailing_slash ? '/' : '\0';
    key[n + 1] = '\0';
    s->key = key;
    s->opened = op;
    s->file.data = data;
    s->file.size = size;
    s->st = *st;
    s->watched = watch_entry(root_fd, s);
    return &s->file;
}
