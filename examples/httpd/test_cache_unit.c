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
        file_cache_put(rel, trailing_slash, opened, fd, &st, time(NULL) + later);
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

    /* every change is seen */
    next_tick();
    write_file("a.txt", "ALPHA");                   /* same size, same inode */
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL,
          "a file rewritten in place with the same size is read again");
    f = put("a.txt", 0, "a.txt", 10);
    CHECK(holds(f, "ALPHA"), "its new bytes are cached");
    next_tick();
    write_file("b.tmp", "beta!");
    CHECK(renameat(root, "b.tmp", root, "a.txt") == 0, "rename");
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL,
          "a file replaced by a rename (another inode) is read again");
    f = put("a.txt", 0, "a.txt", 10);
    next_tick();
    CHECK(fchmodat(root, "a.txt", 0, 0) == 0, "chmod");
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL,
          "a file whose permissions changed is opened again (and refused)");
    CHECK(fchmodat(root, "a.txt", 0644, 0) == 0, "chmod back");
    f = put("a.txt", 0, "a.txt", 10);
    CHECK(holds(f, "beta!"), "cached again");
    CHECK(unlinkat(root, "a.txt", 0) == 0, "unlink");
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL, "a removed file is not served");
    CHECK(symlinkat("/etc/hostname", root, "a.txt") == 0, "symlink");
    CHECK(file_cache_get(root, "a.txt", 0, &st) == NULL,
          "nor what a symbolic link put in its place names");
    CHECK(file_cache_hits() == 2, "two hits in all: %ld", file_cache_hits());

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("warning: could not remove %s\n", dir);
    printf("httpd cache unit: %d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
