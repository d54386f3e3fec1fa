/* Unit tests of http.c (the native half of httpd): request heads, paths,
 * opening below the root.  Plain C; run by examples/httpd/httpd.mk. */
#define _GNU_SOURCE
#include "http.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static int failures, checks;

#define CHECK(cond, ...) do { checks++; if (!(cond)) { failures++; \
    printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); \
    printf("\n"); } } while (0)

/* complete + parse + target -> status (0 when fine), path in out */
static int run(const char *text, char *out, size_t outsz)
{
    char buf[HTTP_HEAD_MAX + 64];
    size_t len = strlen(text), hl = 0, skip;
    struct http_request req;
    int ts, st;
    memcpy(buf, text, len + 1);
    skip = http_leading_empty(buf, len);
    memmove(buf, buf + skip, len - skip + 1);
    len -= skip;
    st = http_head_complete(buf, len, HTTP_HEAD_MAX, &hl);
    if (st != 1)
        return st == 0 ? -1 : st;
    st = http_parse_head(buf, hl, &req);
    if (st)
        return st;
    if (req.method == HTTP_OTHER)
        return 405;
    return http_target_to_path(&req, out, outsz, &ts);
}

static void expect(const char *text, int status, const char *path)
{
    char out[PATH_MAX] = "";
    int st = run(text, out, sizeof out);
    CHECK(st == status, "%.60s: status %d, expected %d", text, st, status);
    if (path && st == 0)
        CHECK(strcmp(out, path) == 0, "%.60s: path '%s', expected '%s'",
              text, out, path);
}

/* httpd -j N: schedulers on several OS threads turn targets into paths
   at once (strtok's hidden state once mixed up their segments). */
struct paths_job {
    const char *text, *path;
    int wrong;
};

static void *paths_thread(void *arg)
{
    struct paths_job *j = arg;
    for (int i = 0; i < 20000; i++) {
        char out[PATH_MAX] = "";
        if (run(j->text, out, sizeof out) != 0 || strcmp(out, j->path) != 0)
            j->wrong++;
    }
    return NULL;
}

static void expect_paths_in_parallel(void)
{
    struct paths_job jobs[2] = {
        { "GET /a/b/./c/d/e.txt HTTP/1.1\r\nHost: x\r\n\r\n", "a/b/c/d/e.txt", 0 },
        { "GET /x/y/../z/w/v/u HTTP/1.1\r\nHost: x\r\n\r\n", "x/z/w/v/u", 0 },
    };
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, paths_thread, &jobs[i]);
    for (int i = 0; i < 2; i++) {
        pthread_join(t[i], NULL);
        CHECK(jobs[i].wrong == 0, "%s: %d of 20000 wrong paths from two threads",
              jobs[i].path, jobs[i].wrong);
    }
}

int main(void)
{
    char tmpl[] = "/tmp/httpd-unit-XXXXXX";
    char *root, real[PATH_MAX], p[PATH_MAX + 64];
    int rootfd, fd, st;
    struct stat sb;
    struct http_request req;

    expect_paths_in_parallel();

    /* heads */
    expect("GET / HTTP/1.1\r\nHost: x\r\n\r\n", 0, "");
    expect("\r\nGET /a/b.txt HTTP/1.1\r\nHost: x\r\n\r\n", 0, "a/b.txt");
    expect("GET /a//./b/../c HTTP/1.1\r\nHost: x\r\n\r\n", 0, "a/c");
    expect("GET /a%20b?x=1 HTTP/1.1\r\nHost: x\r\n\r\n", 0, "a b");
    expect("GET http://h:1/z HTTP/1.1\r\nHost: x\r\n\r\n", 0, "z");
    expect("GET / HTTP/1.0\n\n", 0, "");
    expect("GET / HTTP/1.1\r\n\r\n", 400, NULL);              /* no Host */
    expect("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, NULL);
    expect("GET /../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 403, NULL);
    expect("GET /a/../../x HTTP/1.1\r\nHost: x\r\n\r\n", 403, NULL);
    expect("GET /%2e%2e/x HTTP/1.1\r\nHost: x\r\n\r\n", 403, NULL);
    expect("GET /%2E%2e%2fx HTTP/1.1\r\nHost: x\r\n\r\n", 403, NULL);
    expect("GET /..%2f..%2fetc HTTP/1.1\r\nHost: x\r\n\r\n", 403, NULL);
    expect("GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n", 400, NULL);
    expect("GET /%0 HTTP/1.1\r\nHost: x\r\n\r\n", 400, NULL);
    expect("GET /a%00b HTTP/1.1\r\nHost: x\r\n\r\n", 400, NULL);
    expect("GET x HTTP/1.1\r\nHost: x\r\n\r\n", 400, NULL);
    expect("GET  / HTTP/1.1\r\nHost: x\r\n\r\n", 400, NULL);
    expect("GET / HTTP/1.1 \r\nHost: x\r\n\r\n", 400, NULL);
    expect("GET / FOO/1.1\r\nHost: x\r\n\r\n", 400, NULL);
    expect("GET /\r\n\r\n", 400, NULL);
    expect("G(T / HTTP/1.1\r\nHost: x\r\n\r\n", 400, NULL);
    expect("\x16\x03\x01\x02", 400, NULL);                    /* TLS hello */
    expect("GET / HTTP/2.0\r\nHost: x\r\n\r\n", 505, NULL);
    expect("GET / HTTP/0.9\r\nHost: x\r\n\r\n", 505, NULL);
    expect("POST / HTTP/1.1\r\nHost: x\r\n\r\n", 405, NULL);
    expect("DELETE /x HTTP/1.1\r\nHost: x\r\n\r\n", 405, NULL);
    expect("GET / HTTP/1.1\r\nHost : x\r\n\r\n", 400, NULL);
    expect("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400, NULL);
    expect("GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", 400, NULL);
    expect("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n", 400, NULL);
    expect("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n"
           "Transfer-Encoding: chunked\r\n\r\n", 400, NULL);
    expect("GET / HTTP/1.1\r\nHost: x\r\nX: a\rb\r\n\r\n", 400, NULL);
    expect("GET / HTTP/1.1\r\nHost: x\r\n", -1, NULL);         /* incomplete */
    expect("GET / HT", -1, NULL);
    {
        char *big = malloc(HTTP_HEAD_MAX + 32);
        size_t hl;
        memset(big, 'a', HTTP_HEAD_MAX + 16);
        memcpy(big, "GET /", 5);
        CHECK(http_head_complete(big, HTTP_HEAD_MAX, HTTP_HEAD_MAX, &hl) == 414,
              "long request line: 414");
        memcpy(big, "GET / HTTP/1.1\r\nX: ", 19);
        CHECK(http_head_complete(big, HTTP_HEAD_MAX, HTTP_HEAD_MAX, &hl) == 431,
              "long headers: 431");
        free(big);
    }
    /* keep-alive rules */
    {
        char b[] = "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n";
        CHECK(http_parse_head(b, strlen(b), &req) == 0 && req.keep_alive,
              "1.0 keep-alive");
        char c[] = "GET / HTTP/1.1\r\nHost: x\r\nConnection: foo, close\r\n\r\n";
        CHECK(http_parse_head(c, strlen(c), &req) == 0 && !req.keep_alive,
              "1.1 close");
        char d[] = "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n";
        CHECK(http_parse_head(d, strlen(d), &req) == 0 && req.keep_alive &&
              req.method == HTTP_HEAD, "1.1 default keep-alive, HEAD");
        char e[] = "GET / HTTP/1.0\r\n\r\n";
        CHECK(http_parse_head(e, strlen(e), &req) == 0 && !req.keep_alive,
              "1.0 default close");
    }

    /* opening below a root */
    root = mkdtemp(tmpl);
    CHECK(root != NULL, "mkdtemp");
    snprintf(p, sizeof p, "%s/www", root);  mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/secret", root);
    fd = open(p, O_WRONLY | O_CREAT, 0644); CHECK(write(fd, "s", 1) == 1, "w"); close(fd);
    snprintf(p, sizeof p, "%s/www/a.txt", root);
    fd = open(p, O_WRONLY | O_CREAT, 0644); CHECK(write(fd, "abc", 3) == 3, "w"); close(fd);
    snprintf(p, sizeof p, "%s/www/sub", root);  mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/www/noindex", root);  mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/www/sub/index.html", root);
    fd = open(p, O_WRONLY | O_CREAT, 0644); CHECK(write(fd, "<p>", 3) == 3, "w"); close(fd);
    snprintf(p, sizeof p, "%s/www/out", root);   symlink("../secret", p);
    snprintf(p, sizeof p, "%s/www/abs", root);   symlink("/etc/passwd", p);
    snprintf(p, sizeof p, "%s/www/in", root);    symlink("a.txt", p);
    snprintf(p, sizeof p, "%s/www/fifo", root);  mkfifo(p, 0644);
    snprintf(p, sizeof p, "%s/www/dirindex", root);  mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/www/dirindex/index.html", root);  mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/www/leak", root);  mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/www/leak/index.html", root);  symlink("../../secret", p);
    snprintf(p, sizeof p, "%s/www", root);
    CHECK(realpath(p, real) != NULL, "realpath");
    rootfd = open(real, O_PATH | O_DIRECTORY);

    {
        /* every served file of the tree above is 3 bytes long */
        static const struct {
            const char *rel;
            int trailing_slash, status;
            const char *what, *opened;
        } cases[] = {
            { "a.txt", 0, 0, "a.txt", "a.txt" },
            { "in", 0, 0, "symlink inside", "in" },
            { "out", 0, 403, "symlink to ../secret", NULL },
            { "abs", 0, 403, "symlink to /etc/passwd", NULL },
            { "fifo", 0, 403, "fifo", NULL },
            { "nope", 0, 404, "missing", NULL },
            { "a.txt/x", 0, 404, "through a file", NULL },
            { "sub", 0, 301, "dir without slash", NULL },
            { "sub", 1, 0, "dir index", "sub/index.html" },
            { "noindex", 1, 403, "dir without index", NULL },
            { "dirindex", 1, 403, "index that is a directory", NULL },
            { "leak", 1, 403, "index that links out of the root", NULL },
            { "", 1, 403, "root without index", NULL },
            { "a.txt", 1, 0, "file with a trailing slash", "a.txt" },
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            char opened[PATH_MAX] = "";
            st = http_open_below(rootfd, real, cases[i].rel, cases[i].trailing_slash,
                                 &fd, &sb, opened, sizeof opened);
            CHECK(st == cases[i].status && (st != 0 || sb.st_size == 3),
                  "%s: %d", cases[i].what, st);
            CHECK(st != 0 || strcmp(opened, cases[i].opened) == 0,
                  "%s: opened %s", cases[i].what, opened);
            if (st == 0)
                close(fd);
        }
        {
            char small[6];
            st = http_open_below(rootfd, real, "sub", 1, &fd, &sb, small, sizeof small);
            CHECK(st == 414, "opened path too long for its buffer: %d", st);
            st = http_open_below(rootfd, real, "a.txt", 0, &fd, &sb, NULL, 0);
            CHECK(st == 0, "no opened path wanted: %d", st);
            if (st == 0)
                close(fd);
        }
    }

    /* the method is a token: exactly RFC 9110's tchar bytes are accepted */
    {
        const char *sym = "!#$%&'*+-.^_`|~";
        int ok = 1, bad = -1;
        for (int ch = 1; ch < 256; ch++) {
            char req[64];
            size_t hl = 0;
            if (ch == '\n')
                continue;
            int n = snprintf(req, sizeof req, "%c / HTTP/1.1\r\nHost: t\r\n\r\n", ch);
            int tchar = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                        (ch >= '0' && ch <= '9') || strchr(sym, ch) != NULL;
            int st = http_head_complete(req, (size_t)n, HTTP_HEAD_MAX, &hl);
            if ((st == 1) != tchar) {
                ok = 0;
                bad = ch;
            }
        }
        CHECK(ok, "method byte 0x%02x judged wrongly", bad);
    }

    /* response heads */
    {
        char out[1024];
        int n = http_format_head(out, sizeof out, 200, 1, "text/plain", 3, 0, 1,
                                 "X-A: b\r\n");
        CHECK(n > 0 && strstr(out, "Content-Length: 3\r\n") &&
              strstr(out, "X-A: b\r\n\r\n") && !strstr(out, "Connection"),
              "head: %s", out);
        n = http_format_error(out, sizeof out, 404, 0, 0, 0, NULL);
        CHECK(n > 0 && strncmp(out, "HTTP/1.1 404 Not Found\r\n", 24) == 0 &&
              strstr(out, "Connection: close\r\n") &&
              strstr(out, "\r\n\r\n404 Not Found\n"), "error: %s", out);
        /* every line, in order; the Date line is checked by its shape */
        n = http_format_head(out, sizeof out, 200, 0, "text/html", 1234567890123LL,
                             784111777, 1, NULL);
        CHECK(n == (int)strlen(out) && strncmp(out, "HTTP/1.1 200 OK\r\n"
              "Server: cpc-httpd\r\nDate: ", 42) == 0 &&
              strlen(out) > 73 && memcmp(out + 67, " GMT\r\n", 6) == 0 &&
              out[45] == ',' && strcmp(out + 73, "Content-Type: text/html\r\n"
              "Content-Length: 1234567890123\r\n"
              "Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
              "Connection: keep-alive\r\n\r\n") == 0, "full head: %s", out);
        n = http_format_head(out, sizeof out, 301, 1, NULL, -1, 951782400, 1, NULL);
        CHECK(n > 0 && strstr(out, "HTTP/1.1 301 Moved Permanently\r\n") &&
              strstr(out, "\r\nLast-Modified: Tue, 29 Feb 2000 00:00:00 GMT\r\n\r\n") &&
              !strstr(out, "Content-Length") && !strstr(out, "Content-Type"),
              "head without a body: %s", out);
        {
            /* the Last-Modified of the file served last is kept: each
               head still carries its own file's date */
            static const struct { time_t t; const char *d; } files[] = {
                { 784111777, "Sun, 06 Nov 1994 08:49:37 GMT" },
                { 951782400, "Tue, 29 Feb 2000 00:00:00 GMT" },
                { 951782400, "Tue, 29 Feb 2000 00:00:00 GMT" },
                { 784111777, "Sun, 06 Nov 1994 08:49:37 GMT" },
                { -1, "Wed, 31 Dec 1969 23:59:59 GMT" },
            };
            int ok = 1;
            char want[64];
            for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
                http_format_head(out, sizeof out, 200, 1, NULL, 0, files[i].t, 1, NULL);
                snprintf(want, sizeof want, "\r\nLast-Modified: %s\r\n", files[i].d);
                ok &= strstr(out, want) != NULL;
            }
            CHECK(ok, "Last-Modified of alternating files: %s", out);
        }
        {
            /* too small a buffer: -1, never a cut head */
            char small[200];
            int full = http_format_head(small, sizeof small, 200, 1, "text/plain", 3,
                                        0, 1, "X-A: b\r\n");
            int fits = 1;
            for (size_t sz = 1; sz <= (size_t)full; sz++)
                fits &= http_format_head(small, sz, 200, 1, "text/plain", 3, 0, 1,
                                         "X-A: b\r\n") == -1;
            CHECK(full > 0 && fits &&
                  http_format_head(small, (size_t)full + 1, 200, 1, "text/plain",
                                   3, 0, 1, "X-A: b\r\n") == full,
                  "head in a buffer one byte short: %d", full);
        }
        CHECK(strcmp(http_mime_type("x/a.HTML"), "text/html; charset=utf-8") == 0,
              "mime html");
        CHECK(strcmp(http_mime_type("x.d/file"), "application/octet-stream") == 0,
              "mime none");
    }

    snprintf(p, sizeof p, "rm -rf '%s'", root);
    if (system(p) != 0)
        printf("warning: could not remove %s\n", root);
    printf("httpd unit: %d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
