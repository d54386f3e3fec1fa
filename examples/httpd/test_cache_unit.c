/* Unit tests of cache.c (httpd's cache of small files): what is cached,
 * and that every change to a cached file is seen.  Plain C; run by
 * examples/httpd/httpd.mk. */
#define _GNU_SOURCE
#include "cache.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

static int failures, checks;

#define CHECK(cond, ...) do { checks++; if (!(cond)) { failures++; \
    printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); \
    printf("\n"); } } while (0)

static int root;

static void write_file(const char *rel, const char *text)
{
    int fd = openat(root, rel, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
        perror(rel);
        exit(1);
    }
    close(fd);
}

/* Open rel and put it in the cache as if `later` seconds had passed since
   it was written; the entry or NULL. */
static const struct cached_file *put(const char *rel, int trailing_slash,
                                     const char *opened, time_t later)
{
    struct stat st;
    int fd = openat(root, opened, O_RDONLY);
    if (fd < 0 || fstat(fd, &st) < 0) {
        perror(opened);
        exit(1);
    }
    const struct cached_file *f =
        file_cache_put(root, rel, trailing_slash, opened, fd, &st, time(NULL) + later);
    close(fd);
    return f;
}

static int holds(const struct cached_file *f, const char *text)
{
    return f != NULL && f->size == strlen(text) && memcmp(f->data, text, f->size) == 0;
}

/* The change time moves on with the next tick of the kernel's coarse
   clock: wait past it, so that a change is visible in the times. */
static void next_tick(void)
{
    usleep(30000);
}

/* Every change to a cached file, or to the path it was found by, is
   seen at the next lookup: by the watcher (watched = 1) or by a stat. */
static void changes_are_seen(int watched, const char *mode)
{
    struct stat st;
    const struct cached_file *f;
    long hits0 = file_cache_hits();

    file_cache_watching(watched);
    write_file("a.txt", "alpha");
    f = put("a.txt", 0, "a.txt", 10);
    CHECK(holds(f, "alpha") && file_cache_watched() == watched,
          "%s: cached, %d entries watched", mode, file_cache_watched());
    CHECK(holds(file_cache_get(root, "a.txt", 0, &st), "alpha") && st.st_size == 5,
          "%s: a hit, with the file's stat", mode);
    CHECK((file_cache_get(-1, "a.txt", 0, &st) != NULL) == watched,
          "%s: a watched hit makes no stat (root -1 is not looked at), an "
          "unwatched one does", mode);
    put("a.txt", 0, "a.txt", 10);                  /* the stat's miss dropped it */
    next_tick();
    write_file("a.txt", "ALPHA");                   /* same size, same inode */
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL,
          "%s: a file rewritten in place with the same size is read again", mode);
    f = put("a.txt", 0, "a.txt", 10);
    CHECK(holds(f, "ALPHA"), "%s: its new bytes are cached", mode);
    next_tick();
    write_file("b.tmp", "beta!");
    CHECK(renameat(root, "b.tmp", root, "a.txt") == 0, "rename");
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL,
          "%s: a file replaced by a rename (another inode) is read again", mode);
    f = put("a.txt", 0, "a.txt", 10);
    next_tick();
    CHECK(fchmodat(root, "a.txt", 0, 0) == 0, "chmod");
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL,
          "%s: a file whose permissions changed is opened again (and refused)", mode);
    CHECK(fchmodat(root, "a.txt", 0644, 0) == 0, "chmod back");
    f = put("a.txt", 0, "a.txt", 10);
    CHECK(holds(f, "beta!"), "%s: cached again", mode);
    CHECK(unlinkat(root, "a.txt", 0) == 0, "unlink");
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL,
          "%s: a removed file is not served", mode);
    CHECK(symlinkat("/etc/hostname", root, "a.txt") == 0, "symlink");
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL,
          "%s: nor what a symbolic link put in its place names", mode);
    CHECK(unlinkat(root, "a.txt", 0) == 0, "unlink the link");

    /* a directory of the path replaced by a rename: the file beneath it
       is unchanged, but the path now names another */
    f = put("sub", 1, "sub/index.html", 10);
    CHECK(holds(f, "<p>index</p>") && file_cache_watched() == watched,
          "%s: the index cached", mode);
    mkdirat(root, "sub2", 0755);
    write_file("sub2/index.html", "<p>other</p>");
    CHECK(renameat(root, "sub", root, "old") == 0 &&
          renameat(root, "sub2", root, "sub") == 0, "rename the directory");
    CHECK(file_cache_get(root, "sub", 1, &st) == NULL,
          "%s: a directory of the path renamed away is seen", mode);
    CHECK(renameat(root, "sub", root, "sub2") == 0 &&
          renameat(root, "old", root, "sub") == 0, "rename back");
    f = put("sub", 1, "sub/index.html", 10);
    CHECK(holds(f, "<p>index</p>"), "%s: cached again", mode);
    CHECK(unlinkat(root, "sub2/index.html", 0) == 0 &&
          unlinkat(root, "sub2", AT_REMOVEDIR) == 0,
          "%s: removing another directory", mode);
    CHECK(file_cache_get(root, "sub", 1, &st) == NULL || !watched,
          "%s: any change in a watched directory drops the watched entries", mode);
    CHECK(file_cache_hits() == hits0 + 2, "%s: %ld hits", mode,
          file_cache_hits() - hits0);
}

int main(void)
{
    char tmpl[] = "/tmp/httpd-cache-unit-XXXXXX", cmd[128];
    struct stat st;
    const struct cached_file *f;
    char *dir = mkdtemp(tmpl);

    if (dir == NULL || (root = open(dir, O_PATH | O_DIRECTORY)) < 0) {
        perror("mkdtemp");
        return 1;
    }
    mkdirat(root, "sub", 0755);
    write_file("a.txt", "alpha");
    write_file("sub/index.html", "<p>index</p>");
    write_file("big", "");
    {
        /* one byte over the limit */
        char *big = malloc(FILE_CACHE_MAX + 2);
        memset(big, 'x', FILE_CACHE_MAX + 1);
        big[FILE_CACHE_MAX + 1] = '\0';
        write_file("big", big);
        free(big);
    }

    /* what is cached */
    CHECK(put("a.txt", 0, "a.txt", 0) == NULL, "a file written just now is not cached");
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL, "nor found");
    f = put("a.txt", 0, "a.txt", 10);
    CHECK(holds(f, "alpha"), "a settled file is cached with its bytes");
    f = file_cache_get(root, "a.txt", 0, &st);
    CHECK(holds(f, "alpha") && st.st_size == 5 && S_ISREG(st.st_mode),
          "and found, with its fresh stat");
    CHECK(file_cache_hits() == 1, "one hit: %ld", file_cache_hits());
    CHECK(file_cache_get(root, "a.txt", 1, &st) == NULL,
          "the same path with a trailing slash is another request");
    CHECK(put("big", 0, "big", 10) == NULL, "a file over FILE_CACHE_MAX is not cached");
    f = put("sub", 1, "sub/index.html", 10);
    CHECK(holds(f, "<p>index</p>"), "a directory's index is cached under its request");
    f = file_cache_get(root, "sub", 1, &st);
    CHECK(holds(f, "<p>index</p>") && st.st_size == 12,
          "and validated through the path opened");
    CHECK(file_cache_get(root, "sub", 0, &st) == NULL,
          "the directory without its slash is not the index");
    {
        /* found through a symbolic link: the watches would follow it to
           directories they do not cover, so the entry is checked by a stat */
        CHECK(file_cache_watched() > 0, "entries are watched");
        CHECK(symlinkat("sub", root, "ln") == 0, "symlink ln -> sub");
        f = put("ln", 1, "ln/index.html", 10);
        CHECK(holds(f, "<p>index</p>") && file_cache_watched() == 0,
              "an entry whose path has a symbolic link is cached, not watched "
              "(and the link's creation in the watched root dropped the others)");
        CHECK(file_cache_get(-1, "ln", 1, &st) == NULL && put("ln", 1, "ln/index.html", 10),
              "and its hits make a stat");
        CHECK(unlinkat(root, "ln", 0) == 0 && symlinkat("/etc", root, "ln") == 0,
              "ln -> /etc");
        CHECK(file_cache_get(root, "ln", 1, &st) == NULL, "its link replaced: a miss");
        CHECK(unlinkat(root, "ln", 0) == 0, "unlink ln");
    }

    changes_are_seen(1, "watched");
    changes_are_seen(0, "by stat");

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("warning: could not remove %s\n", dir);
    printf("httpd cache unit: %d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
