/* http.c -- the native half of httpd; see http.h. */
#define _GNU_SOURCE
#include "http.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

/* ------------------------------------------------------------------ */
/* Request heads                                                       */
/* ------------------------------------------------------------------ */

/* RFC 9110 tchar (a switch, not strchr: it runs on every byte of the
   method and of each field name) */
static int is_tchar(unsigned char ch)
{
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
        (ch >= '0' && ch <= '9'))
        return 1;
    switch (ch) {
    case '!': case '#': case '$': case '%': case '&': case '\'': case '*':
    case '+': case '-': case '.': case '^': case '_': case '`': case '|':
    case '~':
        return 1;
    default:
        return 0;
    }
}

size_t http_leading_empty(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && (buf[i] == '\r' || buf[i] == '\n'))
        i++;
    return i;
}

/* Check the request line buf[0..eol) (eol excludes the '\n' and a '\r'
   before it) for the shape "METHOD SP TARGET SP HTTP/d.d". */
static int request_line_shape_ok(const char *buf, size_t eol)
{
    size_t i = 0, start;
    while (i < eol && is_tchar((unsigned char)buf[i]))
        i++;
    if (i == 0 || i > 32 || i >= eol || buf[i] != ' ')
        return 0;
    start = ++i;
    while (i < eol && (unsigned char)buf[i] > 0x20 && buf[i] != 0x7f)
        i++;
    if (i == start || i >= eol || buf[i] != ' ')
        return 0;
    i++;
    if (eol - i != 8 || memcmp(buf + i, "HTTP/", 5) != 0 ||
        buf[i + 5] < '0' || buf[i + 5] > '9' || buf[i + 6] != '.' ||
        buf[i + 7] < '0' || buf[i + 7] > '9')
        return 0;
    return 1;
}

/* Length of the request line content, stripped of CR. */
static size_t strip_cr(const char *buf, size_t nl)
{
    return (nl > 0 && buf[nl - 1] == '\r') ? nl - 1 : nl;
}

int http_head_complete(const char *buf, size_t len, size_t max,
                       size_t *head_len)
{
    const char *nl = memchr(buf, '\n', len);
    size_t i;
    if (nl == NULL) {
        /* No complete request line yet.  Reject garbage early: the method
           must be a token followed by a space. */
        for (i = 0; i < len && is_tchar((unsigned char)buf[i]); i++)
            ;
        if (i < len && (buf[i] != ' ' || i == 0))
            return (buf[i] == '\r' && i + 1 == len && i > 0) ? 0 : 400;
        if (i > 32)
            return 400;
        return len >= max ? 414 : 0;
    }
    if (!request_line_shape_ok(buf, strip_cr(buf, (size_t)(nl - buf))))
        return 400;
    /* Find the blank line ending the head: "\n\n" or "\n\r\n". */
    for (i = (size_t)(nl - buf); i < len; i++) {
        if (buf[i] != '\n')
            continue;
        if (i + 1 < len && buf[i + 1] == '\n') {
            *head_len = i + 2;
            return *head_len <= max ? 1 : 431;
        }
        if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n') {
            *head_len = i + 3;
            return *head_len <= max ? 1 : 431;
        }
    }
    return len >= max ? 431 : 0;
}

/* Does a comma-separated header value contain token tok (case-insensitive)? */
static int has_token(const char *v, const char *tok)
{
    size_t n = strlen(tok);
    while (*v) {
        while (*v == ' ' || *v == '\t' || *v == ',')
            v++;
        const char *s = v;
        while (*v && *v != ',')
            v++;
        const char *e = v;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if ((size_t)(e - s) == n && strncasecmp(s, tok, n) == 0)
            return 1;
    }
    return 0;
}

int http_parse_head(char *head, size_t len, struct http_request *req)
{
    char *p = head, *end = head + len, *line_end, *sp;
    int conn_close = 0, conn_keep = 0, hosts = 0, te = 0;
    long long clen = -1;

    memset(req, 0, sizeof *req);
    /* Request line (its shape was checked by http_head_complete, but
       check again: this function is also used on its own). */
    line_end = memchr(p, '\n', (size_t)(end - p));
    if (line_end == NULL)
        return 400;
    if (!request_line_shape_ok(p, strip_cr(p, (size_t)(line_end - p))))
        return 400;
    sp = memchr(p, ' ', (size_t)(line_end - p));
    *sp = '\0';
    if (strcmp(p, "GET") == 0)
        req->method = HTTP_GET;
    else if (strcmp(p, "HEAD") == 0)
        req->method = HTTP_HEAD;
    else
        req->method = HTTP_OTHER;
    req->target = sp + 1;
    sp = memchr(req->target, ' ', (size_t)(line_end - req->target));
    *sp = '\0';
    /* sp + 1 is "HTTP/d.d" */
    if (sp[6] != '1')
        return 505;
    req->minor = sp[8] - '0' >= 1 ? 1 : 0;
    req->query_cut = req->target + strcspn(req->target, "?#");
    p = line_end + 1;

    /* Header fields. */
    for (;;) {
        char *name, *colon, *val, *vend;
        line_end = memchr(p, '\n', (size_t)(end - p));
        if (line_end == NULL)
            return 400;
        vend = line_end;
        if (vend > p && vend[-1] == '\r')
            vend--;
        if (vend == p)
            break;                       /* the blank line */
        *vend = '\0';
        if (*p == ' ' || *p == '\t')
            return 400;                  /* obsolete line folding */
        name = p;
        colon = name;
        while (is_tchar((unsigned char)*colon))
            colon++;
        if (colon == name || *colon != ':')
            return 400;                  /* no name, or space before ':' */
        *colon = '\0';
        val = colon + 1;
        while (*val == ' ' || *val == '\t')
            val++;
        for (char *q = val; *q; q++) {
            unsigned char ch = (unsigned char)*q;
            if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
                return 400;              /* stray CR, NUL, controls */
        }
        {
            char *t = val + strlen(val);
            while (t > val && (t[-1] == ' ' || t[-1] == '\t'))
                *--t = '\0';
        }
        if (strcasecmp(name, "Host") == 0) {
            hosts++;
        } else if (strcasecmp(name, "Connection") == 0) {
            if (has_token(val, "close"))
                conn_close = 1;
            if (has_token(val, "keep-alive"))
                conn_keep = 1;
        } else if (strcasecmp(name, "Content-Length") == 0) {
            char *q = val;
            long long v = 0;
            if (*q == '\0')
                return 400;
            for (; *q; q++) {
                if (*q < '0' || *q > '9' || v > (1LL << 50))
                    return 400;
                v = v * 10 + (*q - '0');
            }
            if (clen >= 0 && clen != v)
                return 400;
            clen = v;
        } else if (strcasecmp(name, "Transfer-Encoding") == 0) {
            te = 1;
        }
        p = line_end + 1;
    }
    if (te && clen >= 0)
        return 400;                      /* request smuggling shape */
    if (hosts > 1 || (req->minor == 1 && hosts == 0))
        return 400;                      /* RFC 9112 section 3.2 */
    req->has_body = te || clen > 0;
    if (req->minor >= 1)
        req->keep_alive = !conn_close;
    else
        req->keep_alive = conn_keep && !conn_close;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Paths                                                               */
/* ------------------------------------------------------------------ */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int http_target_to_path(const struct http_request *req, char *out,
                        size_t outsz, int *trailing_slash)
{
    const char *s = req->target, *e = req->query_cut;
    char *dec, *d, *seg, *save = NULL;
    size_t olen = 0;

    /* absolute-form "http://authority/path" (RFC 9112 section 3.2.2) */
    if (strncasecmp(s, "http://", 7) == 0 || strncasecmp(s, "https://", 8) == 0) {
        s = strstr(s, "//") + 2;
        while (s < e && *s != '/')
            s++;
        if (s == e)
            s = "/", e = s + 1;
    }
    if (s >= e || *s != '/')
        return 400;
    if ((size_t)(e - s) >= outsz)
        return 414;
    *trailing_slash = e[-1] == '/';

    /* Percent-decode first, so that %2e%2e and %2f are seen for what they
       are by the normalisation below. */
    dec = malloc((size_t)(e - s) + 1);
    if (dec == NULL)
        return 500;
    for (d = dec; s < e; s++) {
        if (*s == '%') {
            int h = -1;
            if (e - s < 3 || (h = hexval(s[1])) < 0 || hexval(s[2]) < 0) {
                free(dec);
                return 400;
            }
            *d = (char)(h * 16 + hexval(s[2]));
            if (*d == '\0') {
                free(dec);
                return 400;
            }
            d++;
            s += 2;
        } else {
            *d++ = *s;
        }
    }
    *d = '\0';
    if (d > dec && d[-1] == '/')
        *trailing_slash = 1;

    /* Normalise: drop empty and "." segments, resolve "..", and refuse a
       ".." that would climb above the root. */
    out[0] = '\0';
    /* strtok_r: with -j N, schedulers on other OS threads parse at once */
    for (seg = strtok_r(dec, "/", &save); seg != NULL; seg = strtok_r(NULL, "/", &save)) {
        if (strcmp(seg, ".") == 0)
            continue;
        if (strcmp(seg, "..") == 0) {
            char *slash;
            if (olen == 0) {
                free(dec);
                return 403;
            }
            slash = strrchr(out, '/');
            olen = slash ? (size_t)(slash - out) : 0;
            out[olen] = '\0';
            continue;
        }
        size_t n = strlen(seg);
        if (olen + (olen > 0) + n + 1 > outsz) {
            free(dec);
            return 414;
        }
        if (olen > 0)
            out[olen++] = '/';
        memcpy(out + olen, seg, n + 1);
        olen += n;
    }
    free(dec);
    return 0;
}

static int openat2_works = 1;    /* cleared when the kernel lacks it */

/* Open path (relative to root_fd) beneath the root; -1 with errno. */
static int open_beneath(int root_fd, const char *root_real, const char *rel)
{
    const char *p = *rel ? rel : ".";
    int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
    if (openat2_works) {
        struct open_how how;
        memset(&how, 0, sizeof how);
        how.flags = (unsigned long long)flags;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
        long fd = syscall(SYS_openat2, root_fd, p, &how, sizeof how);
        if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
            return (int)fd;
        openat2_works = 0;
    }
    /* Fallback: canonicalise, check the prefix, refuse a last symlink. */
    {
        char full[PATH_MAX], real[PATH_MAX];
        size_t rl = strlen(root_real);
        if (snprintf(full, sizeof full, "%s/%s", root_real, rel) >= (int)sizeof full) {
            errno = ENAMETOOLONG;
            return -1;
        }
        if (realpath(full, real) == NULL)
            return -1;
        if (strncmp(real, root_real, rl) != 0 ||
            (real[rl] != '/' && real[rl] != '\0' && !(rl == 1))) {
            errno = EXDEV;
            return -1;
        }
        return open(real, flags | O_NOFOLLOW);
    }
}

static int errno_status(int e)
{
    switch (e) {
    case ENOENT: case ENOTDIR:
        return 404;
    case EXDEV: case ELOOP: case EACCES: case EPERM: case ENXIO:
        return 403;
    case ENAMETOOLONG:
        return 414;
    case EMFILE: case ENFILE:
        return -EMFILE;
    default:
        return 500;
    }
}

/* The index of directory rel, written into idx; 0, or 414 if too long. */
static int index_path(char *idx, size_t n, const char *rel)
{
    return snprintf(idx, n, "%s%sindex.html", rel, *rel ? "/" : "") >= (int)n
               ? 414 : 0;
}

/* Open regular file rel/index.html straight away: a request for a
   directory costs one open and one fstat instead of three system calls
   more.  0 with *fdp and *st, or -1 when the caller must look at rel. */
static int open_index_directly(int root_fd, const char *root_real,
                               const char *rel, int *fdp, struct stat *st)
{
    char idx[PATH_MAX];
    if (index_path(idx, sizeof idx, rel) != 0)
        return -1;
    int fd = open_beneath(root_fd, root_real, idx);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return -1;
    }
    *fdp = fd;
    return 0;
}

/* Copy path into opened (size n, or NULL: nothing); 414 if it does not fit. */
static int tell_opened(char *opened, size_t n, const char *path)
{
    if (opened != NULL && snprintf(opened, n, "%s", path) >= (int)n)
        return 414;
    return 0;
}

int http_open_below(int root_fd, const char *root_real, const char *rel,
                    int trailing_slash, int *fdp, struct stat *st,
                    char *opened, size_t opened_size)
{
    char idx[PATH_MAX];
    if (trailing_slash && open_index_directly(root_fd, root_real, rel, fdp, st) == 0) {
        if (index_path(idx, sizeof idx, rel) == 0 &&
            tell_opened(opened, opened_size, idx) == 0)
            return 0;
        close(*fdp);
        return 414;
    }
    const char *path = rel;
    int fd = open_beneath(root_fd, root_real, rel);
    if (fd < 0)
        return errno_status(errno);
    if (fstat(fd, st) < 0) {
        close(fd);
        return 500;
    }
    if (S_ISDIR(st->st_mode)) {
        close(fd);
        if (!trailing_slash)
            return 301;
        if (index_path(idx, sizeof idx, rel) != 0)
            return 414;
        path = idx;
        fd = open_beneath(root_fd, root_real, idx);
        if (fd < 0) {
            int s = errno_status(errno);
            return s == 404 ? 403 : s;   /* no listing of directories */
        }
        if (fstat(fd, st) < 0) {
            close(fd);
            return 500;
        }
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        return 403;
    }
    if (tell_opened(opened, opened_size, path) != 0) {
        close(fd);
        return 414;
    }
    *fdp = fd;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Responses                                                           */
/* ------------------------------------------------------------------ */

const char *http_mime_type(const char *path)
{
    static const struct { const char *ext, *type; } types[] = {
        { "html", "text/html; charset=utf-8" },
        { "htm", "text/html; charset=utf-8" },
        { "txt", "text/plain; charset=utf-8" },
        { "css", "text/css" },
        { "js", "text/javascript" },
        { "json", "application/json" },
        { "png", "image/png" },
        { "jpg", "image/jpeg" },
        { "jpeg", "image/jpeg" },
        { "gif", "image/gif" },
        { "svg", "image/svg+xml" },
        { "ico", "image/x-icon" },
        { "pdf", "application/pdf" },
        { "wasm", "application/wasm" },
    };
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash : path, '.');
    if (dot != NULL)
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
            if (strcasecmp(dot + 1, types[i].ext) == 0)
                return types[i].type;
    return "application/octet-stream";
}

const char *http_reason(int status)
{
    switch (status) {
    case 200: return "OK";
    case 301: return "Moved Permanently";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Unknown";
    }
}

/* An IMF-fixdate (RFC 9110 5.6.7), "Sun, 06 Nov 1994 08:49:37 GMT": 29
   characters and a NUL.  Written by hand, not with strftime, whose day
   and month names follow the locale and which costs a few percent of a
   keep-alive request. */
#define HTTP_DATE_LEN 29

/* v (0..99) as two digits at p; returns the end. */
static char *put_two_digits(char *p, int v)
{
    p[0] = (char)('0' + v / 10);
    p[1] = (char)('0' + v % 10);
    return p + 2;
}

static void http_date(time_t t, char out[HTTP_DATE_LEN + 1])
{
    static const char days[] = "SunMonTueWedThuFriSat";
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    struct tm tm;
    if (gmtime_r(&t, &tm) == NULL || tm.tm_year + 1900 > 9999 || tm.tm_year + 1900 < 0)
        gmtime_r(&(time_t){ 0 }, &tm);
    int year = tm.tm_year + 1900;
    char *p = out;
    memcpy(p, days + 3 * tm.tm_wday, 3);
    p += 3;
    *p++ = ',';
    *p++ = ' ';
    p = put_two_digits(p, tm.tm_mday);
    *p++ = ' ';
    memcpy(p, months + 3 * tm.tm_mon, 3);
    p += 3;
    *p++ = ' ';
    p = put_two_digits(p, year / 100);
    p = put_two_digits(p, year % 100);
    *p++ = ' ';
    p = put_two_digits(p, tm.tm_hour);
    *p++ = ':';
    p = put_two_digits(p, tm.tm_min);
    *p++ = ':';
    p = put_two_digits(p, tm.tm_sec);
    memcpy(p, " GMT", 5);
}

/* The Date header changes once a second: format it at most that often
   (per OS thread: with -j N each scheduler's thread keeps its own). */
static const char *date_now(void)
{
    static __thread time_t cached = -1;
    static __thread char buf[HTTP_DATE_LEN + 1];
    time_t now = time(NULL);
    if (now != cached) {
        http_date(now, buf);
        cached = now;
    }
    return buf;
}

/* Last-Modified of t: the date of the file served last is kept, as most
   requests are for a few files (per OS thread, as date_now). */
static const char *date_of(time_t t)
{
    static __thread int known;
    static __thread time_t cached;
    static __thread char buf[HTTP_DATE_LEN + 1];
    if (!known || t != cached) {
        http_date(t, buf);
        cached = t;
        known = 1;
    }
    return buf;
}

/* Appending to a head of known size: every piece is copied, none is
   formatted with printf (which was a tenth of httpd's user time). */
struct head_out {
    char *p, *end;
    int overflow;
};

static void head_put(struct head_out *o, const char *s, size_t n)
{
    if ((size_t)(o->end - o->p) <= n) {
        o->overflow = 1;
        return;
    }
    memcpy(o->p, s, n);
    o->p += n;
}

static void head_puts(struct head_out *o, const char *s)
{
    head_put(o, s, strlen(s));
}

static void head_put_number(struct head_out *o, unsigned long long v)
{
    char d[24], *q = d + sizeof d;
    do
        *--q = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    head_put(o, q, (size_t)(d + sizeof d - q));
}

int http_format_head(char *buf, size_t sz, int status, int minor,
                     const char *ctype, long long content_length,
                     time_t mtime, int keep_alive, const char *extra)
{
    struct head_out o = { buf, buf + sz, 0 };
    if (status < 100 || status > 999 || sz == 0)
        return -1;
    head_puts(&o, "HTTP/1.1 ");
    head_put_number(&o, (unsigned)status);
    head_puts(&o, " ");
    head_puts(&o, http_reason(status));
    head_puts(&o, "\r\nServer: cpc-httpd\r\nDate: ");
    head_put(&o, date_now(), HTTP_DATE_LEN);
    head_puts(&o, "\r\n");
    if (ctype != NULL) {
        head_puts(&o, "Content-Type: ");
        head_puts(&o, ctype);
        head_puts(&o, "\r\n");
    }
    if (content_length >= 0) {
        head_puts(&o, "Content-Length: ");
        head_put_number(&o, (unsigned long long)content_length);
        head_puts(&o, "\r\n");
    }
    if (mtime != 0) {
        head_puts(&o, "Last-Modified: ");
        head_put(&o, date_of(mtime), HTTP_DATE_LEN);
        head_puts(&o, "\r\n");
    }
    if (!keep_alive)
        head_puts(&o, "Connection: close\r\n");
    else if (minor == 0)
        head_puts(&o, "Connection: keep-alive\r\n");
    if (extra != NULL)
        head_puts(&o, extra);
    head_puts(&o, "\r\n");
    if (o.overflow)
        return -1;
    *o.p = '\0';
    return (int)(o.p - buf);
}

int http_format_error(char *buf, size_t sz, int status, int minor,
                      int keep_alive, int head_only, const char *extra)
{
    char body[96];
    int bl = snprintf(body, sizeof body, "%d %s\n", status, http_reason(status));
    int n = http_format_head(buf, sz, status, minor, "text/plain; charset=utf-8",
                             bl, 0, keep_alive, extra);
    if (n < 0)
        return -1;
    if (!head_only) {
        if ((size_t)(n + bl) >= sz)
            return -1;
        memcpy(buf + n, body, (size_t)bl + 1);
        n += bl;
    }
    return n;
}
