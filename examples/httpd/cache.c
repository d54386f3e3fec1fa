/* cache.c -- httpd's cache of small files; see cache.h. */
#define _GNU_SOURCE
#include "cache.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct slot {
    char *key;                  /* rel, then '/' when it had a trailing slash */
    char *opened;               /* the path the file was opened under */
    struct cached_file file;
    dev_t dev;
    ino_t ino;
    struct timespec mtim, ctim;
};

static __thread struct slot slots[FILE_CACHE_SLOTS];
static long hits;               /* all threads' (__atomic) */

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
    return S_ISREG(st->st_mode) && st->st_dev == s->dev && st->st_ino == s->ino &&
           (size_t)st->st_size == s->file.size && same_time(st->st_mtim, s->mtim) &&
           same_time(st->st_ctim, s->ctim);
}

static void slot_clear(struct slot *s)
{
    free(s->key);
    free(s->opened);
    free((char *)s->file.data);
    memset(s, 0, sizeof *s);
}

const struct cached_file *file_cache_get(int root_fd, const char *rel,
                                         int trailing_slash, struct stat *st)
{
    struct slot *s = &slots[slot_of(rel, trailing_slash)];
    if (!key_is(s, rel, trailing_slash))
        return NULL;
    if (fstatat(root_fd, *s->opened ? s->opened : ".", st, 0) < 0 ||
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

const struct cached_file *file_cache_put(const char *rel, int trailing_slash,
                                         const char *opened, int fd,
                                         const struct stat *st, time_t now)
{
    if (!S_ISREG(st->st_mode) || st->st_size > FILE_CACHE_MAX || !settled(st, now))
        return NULL;
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
    s->dev = st->st_dev;
    s->ino = st->st_ino;
    s->mtim = st->st_mtim;
    s->ctim = st->st_ctim;
    return &s->file;
}
