/* cpc/cpc_io.h -- cooperative I/O and timeouts (library, written in CPC).
 *
 * All functions work on descriptors prepared by cpc_setup_descriptor
 * (non-blocking).  Errors are -1 with errno set; a timeout is -1 with errno
 * EAGAIN; a timeout that cannot be allocated is -1 with errno ENOMEM (the
 * operation never waits without its timeout).  Allocation failures are
 * reported, as everywhere in the library: see docs/abi.md, "Running out
 * of memory". */
#ifndef CPC_IO_H
#define CPC_IO_H

#include <sys/types.h>
#include <sys/socket.h>
#include <cpc/cpc_runtime.h>

#pragma GCC visibility push(default)

/* Timeouts: a condvar signalled once, after the delay.  cpc_timeout_get
   returns NULL with errno ENOMEM when out of memory: check it before
   waiting on its condvar,
       cpc_timeout *t = cpc_timeout_get(5, 0);
       if (t == NULL)
           return -1;                      // ENOMEM
       rc = cpc_io_wait(fd, CPC_IO_IN, cpc_timeout_condvar(t));
       expired = cpc_timeout_expired(t);
       cpc_timeout_destroy(t);
   (a NULL condvar would mean "no timeout").  Restarting an expired
   timeout spawns a thread: out of memory there exits with a message. */
typedef struct cpc_timeout cpc_timeout;
cps cpc_timeout *cpc_timeout_get(int secs, int usecs);
cps void cpc_timeout_restart(cpc_timeout *t);
cpc_condvar *cpc_timeout_condvar(cpc_timeout *t);
int cpc_timeout_expired(cpc_timeout *t);
void cpc_timeout_destroy(cpc_timeout *t);

/* O_NONBLOCK, and TCP_NODELAY if nonagle; 1 on success, -1 on error. */
int cpc_setup_descriptor(int fd, int nonagle);

cps int cpc_read(int fd, void *buf, size_t count);
cps int cpc_write(int fd, void *buf, size_t count);
cps int cpc_read_timeout(int fd, void *buf, size_t count, int secs, int micros);
cps int cpc_write_timeout(int fd, void *buf, size_t count, int secs, int micros);

/* Beyond the original library: what a server needs next. */

/* Accept a connection on a non-blocking listening socket; the new
   descriptor is already set up (non-blocking; on Linux it inherits the
   listener's TCP_NODELAY, so setting that on the listener saves a
   system call per connection).  It looks whether a connection is queued
   before it calls accept4, which costs several times more on an empty
   queue; on a TCP listener one look (getsockopt TCP_INFO) counts the
   connections queued, and serves the calls that take them.  The first
   cpc_read of the new descriptor waits for it before reading while the
   first reads of accepted connections lately found nothing (lib/io.cpc).
   secs < 0: no timeout. */
cps int cpc_accept_timeout(int fd, struct sockaddr *addr, socklen_t *len,
                           int secs, int micros);
cps int cpc_accept(int fd, struct sockaddr *addr, socklen_t *len);
/* Connect a socket set up with cpc_setup_descriptor; 0 or -1. */
cps int cpc_connect_timeout(int fd, const struct sockaddr *addr, socklen_t len,
                            int secs, int micros);
cps int cpc_connect(int fd, const struct sockaddr *addr, socklen_t len);
/* Write all `count` bytes unless an error or the timeout (secs < 0: none)
   happens first; returns count, or -1 with errno (bytes may have been
   written). */
cps ssize_t cpc_write_all(int fd, const void *buf, size_t count,
                          int secs, int micros);
/* Read one line (up to and including '\n', at most size-1 bytes, NUL
   terminated) through a per-connection buffer; returns its length, 0 at
   end of file, -1 with errno (EAGAIN on timeout, EMSGSIZE if the line does
   not fit).  The timeout covers the whole call: secs < 0, none (micros is
   ignored); otherwise secs seconds plus micros microseconds (0 <= micros
   < 1000000) from the first time it has to wait; 0, 0 returns a line
   already buffered or readable, else -1/EAGAIN at once. */
typedef struct cpc_reader cpc_reader;
cpc_reader *cpc_reader_new(int fd, size_t bufsize);
void cpc_reader_free(cpc_reader *r);
cps ssize_t cpc_read_line(cpc_reader *r, char *line, size_t size,
                          int secs, int micros);
/* Bytes already buffered by a reader (e.g. a request body after its
   headers): copies at most count bytes; returns how many. */
size_t cpc_reader_take(cpc_reader *r, void *buf, size_t count);
/* getaddrinfo run on the default thread pool, so other threads keep
   running; same arguments and result as getaddrinfo. */
struct addrinfo;
cps int cpc_getaddrinfo(const char *node, const char *service,
                        const struct addrinfo *hints, struct addrinfo **res);

#pragma GCC visibility pop

#endif
