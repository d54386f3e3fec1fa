/* lib/lib_internal.h -- shared between the library's modules; not
 * installed.  Internal names start with cpc__lib_. */
#ifndef CPC_LIB_INTERNAL_H
#define CPC_LIB_INTERNAL_H

#include <cpc/cpc_io.h>

/* Microseconds left before t's deadline (0 once passed), on the monotonic
   clock. */
long long cpc__lib_timeout_remaining_us(cpc_timeout *t);

/* Wait until fd is ready for direction dir (CPC_IO_IN or CPC_IO_OUT), or
   until timeout t expires (t NULL: no timeout).  0 when the descriptor is
   (probably) ready: the caller retries its system call; -1 with errno
   EAGAIN when t has expired, or with the error of the wait.  Attached, it
   is cpc_io_wait(fd, dir, cpc_timeout_condvar(t)); detached, poll(). */
cps int cpc__lib_wait_fd(int fd, int dir, cpc_timeout *t);

/* Mark fd, just accepted, as not read yet (lib/io.cpc, "The first read of
   an accepted connection"). */
void cpc__lib_fresh_mark(int fd);

/* Destroy t (if not NULL) keeping errno. */
void cpc__lib_timeout_done(cpc_timeout *t);

#endif
