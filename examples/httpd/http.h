/* http.h -- the native (non-cps) half of httpd: HTTP/1.1 request parsing,
 * safe path resolution under the served directory, response heads.
 *
 * Nothing here blocks on the network or cooperates: these are plain C
 * functions that httpd.cpc calls from its cps code. */
#ifndef HTTPD_HTTP_H
#define HTTPD_HTTP_H

#include <stddef.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <time.h>

/* Largest request head (request line + headers) accepted. */
#define HTTP_HEAD_MAX 8192

enum { HTTP_GET = 1, HTTP_HEAD = 2, HTTP_OTHER = 3 };

struct http_request {
    int method;          /* HTTP_GET, HTTP_HEAD or HTTP_OTHER */
    int minor;           /* HTTP/1.minor (0 or 1; higher minors read as 1) */
    int keep_alive;      /* the client allows the connection to persist */
    int has_body;        /* Content-Length > 0 or Transfer-Encoding */
    char *target;        /* NUL-terminated request-target, inside the head */
    char *query_cut;     /* where the path part of target ends ('?', '#', NUL) */
};

/* Drop empty lines before a request line (RFC 9112 section 2.2): returns how
   many leading bytes of buf are CR/LF only, up to the first other byte. */
size_t http_leading_empty(const char *buf, size_t len);

/* Is the request head in buf[0..len) complete?  Returns 0 when more bytes
   are needed, 1 when complete (*head_len is then its length, blank line
   included), or an error status: 400 when the request line is already
   visibly malformed, 414 when the request line does not fit in max bytes,
   431 when the headers do not. */
int http_head_complete(const char *buf, size_t len, size_t max,
                       size_t *head_len);

/* Parse a complete head in place (it is modified: NULs are written).
   Returns 0 or an error status (400, 505). */
int http_parse_head(char *head, size_t len, struct http_request *req);

/* Turn req->target into a path relative to the served root: decoded,
   normalised, never starting with '/', "" for the root itself.  Returns 0,
   or 400 (malformed), 403 (escapes the root), 414 (too long).
   *trailing_slash tells whether the path part ended with '/'. */
int http_target_to_path(const struct http_request *req, char *out,
                        size_t outsz, int *trailing_slash);

/* Open `rel` below the root directory (root_fd, whose canonical path is
   root_real) without ever leaving it: no "..", no symbolic link pointing
   outside, no special files.  A directory is served through its index.html.
   Returns 0 with *fd open (O_RDONLY) and *st filled, or an HTTP status
   (301 directory without trailing slash, 403, 404, 414, 500), or -EMFILE
   when the process is out of descriptors (the caller may wait and retry).
   The path opened, relative to the root (rel, or its index.html), is
   copied into opened (opened_size bytes; NULL: not wanted). */
int http_open_below(int root_fd, const char *root_real, const char *rel,
                    int trailing_slash, int *fd, struct stat *st,
                    char *opened, size_t opened_size);

/* The Content-Type for a file name. */
const char *http_mime_type(const char *path);

/* Reason phrase of a status code. */
const char *http_reason(int status);

/* Format a response head into buf (size sz).  content_length < 0: none.
   mtime 0: no Last-Modified.  extra: more header lines ("Name: v\r\n"...),
   or NULL.  Returns its length, or -1 if it does not fit. */
int http_format_head(char *buf, size_t sz, int status, int minor,
                     const char *ctype, long long content_length,
                     time_t mtime, int keep_alive, const char *extra);

/* A complete small error response (head and a text/plain body, which is
   left out for HEAD requests).  Returns its length, or -1. */
int http_format_error(char *buf, size_t sz, int status, int minor,
                      int keep_alive, int head_only, const char *extra);

#endif
