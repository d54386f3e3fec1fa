/* cache.h -- httpd's cache of small files: their bytes in memory, so that
 * serving one again costs no system call instead of open, fstat, read and
 * close.
 *
 * An entry is only trusted while the file is provably the one read: the
 * same device, inode, size, modification and change times as the path it
 * was opened under shows.  A file changed, replaced, renamed, re-linked or
 * re-permissioned since has another inode or change time, and is opened
 * afresh.  Only settled files are cached (changed at least
 * FILE_CACHE_SETTLE_S seconds ago): the times of a file written twice
 * within a clock tick could not tell the two versions apart.  A hit can
 * only be a file that was opened beneath the root (http_open_below) and
 * has not changed since, so a symbolic link swapped in meanwhile cannot
 * make the cache serve anything else.
 *
 * How "has not changed" is known: by the watcher, else by a stat.  The
 * watcher is an inotify descriptor per OS thread on the root, every
 * directory of the path and the file; the kernel signals its thread
 * (SIGIO) inside the system call that makes the change, so the flag the
 * handler raises is up before a request sent after the change can be
 * read, and the next lookup drops every watched entry.  An entry is
 * watched only when its path, resolved without symbolic links, still
 * leads to the unchanged file once the watches are in place.  Without a
 * watcher (inotify refused, file_cache_watching(0), a path through a
 * symbolic link) each hit makes one stat of the path, as above.  What
 * inotify does not report, the watched entries do not see either: a
 * change made through a shared writable mapping (mmap), by another host
 * on a network file system, or a file system mounted over a directory of
 * the path; serve such trees with watching off.
 *
 * One cache per OS thread (with -j N, each scheduler has its own), of
 * FILE_CACHE_SLOTS entries of at most FILE_CACHE_MAX bytes each, indexed
 * by the request's path: an entry is replaced by the next file whose path
 * falls in its slot.  Plain C, no cps calls: unit-tested with plain cc. */
#ifndef HTTPD_CACHE_H
#define HTTPD_CACHE_H

#include <stddef.h>
#include <time.h>
#include <sys/stat.h>

#define FILE_CACHE_SLOTS 64
#define FILE_CACHE_MAX (16 * 1024)
#define FILE_CACHE_SETTLE_S 2

struct cached_file {
    const char *data;
    size_t size;
};

/* The cached bytes of the file that request path rel (with or without a
   trailing slash) resolved to, if that file is unchanged; *st is then its
   stat (as read, or fresh when the entry is not watched).  NULL otherwise
   (also when the stat fails). */
const struct cached_file *file_cache_get(int root_fd, const char *rel,
                                         int trailing_slash, struct stat *st);

/* Remember fd, the regular file of size st->st_size just opened for rel
   as the path `opened` below the root root_fd: read it (pread) when it is
   small and settled at time `now` (time(2)), and watch it when the
   watcher can.  Returns the entry, or NULL when the file is not cached
   (too big, changed too recently, a short read, out of memory). */
const struct cached_file *file_cache_put(int root_fd, const char *rel,
                                         int trailing_slash, const char *opened,
                                         int fd, const struct stat *st, time_t now);

/* Whether entries put from now on may be watched (default 1); 0: every
   hit is checked by a stat.  For all threads; the entries already
   watched stay watched. */
void file_cache_watching(int on);

/* Entries put on this thread that are watched (0 to FILE_CACHE_SLOTS). */
int file_cache_watched(void);

/* Hits since the start, on every thread (for the stats line). */
long file_cache_hits(void);

#endif
