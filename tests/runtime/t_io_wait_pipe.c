/* cpc_io_wait on a pipe, both directions: a reader waits for data
   (CPC_IO_IN) written later by another thread; a writer facing a full pipe
   waits for room (CPC_IO_OUT) made later by a reader.  The drainer reads
   once the reader has read (polling with short sleeps), not after a fixed
   delay, so the order of the output does not depend on how fast the
   machine is. */
#include "cps_test.h"
#include <fcntl.h>

static int p1[2], p2[2];
static int reader_done;

CPC_FRAMES_BEGIN
struct reader__frame_1 { int fd; cpc_function *cpc_fn; };
struct writer__frame_1 { int fd; cpc_function *cpc_fn; };
struct filler__frame_1 { int fd; cpc_function *cpc_fn; };
struct drainer__frame_1 { int fd; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void reader(int fd) { r = cpc_io_wait(fd, CPC_IO_IN); read; print } */
static cpc_continuation *reader__resume_1(cpc_continuation *k)
{
    struct reader__frame_1 *cpc_f = CPC_POP(k, struct reader__frame_1);
    int r;
    char buf[64];
    CPC_RESULT(r, cpc_f);
    CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");
    CT_CHECK(r > 0, "cpc_io_wait: %d", r);
    ssize_t n = read(cpc_f->fd, buf, sizeof buf - 1);
    CT_CHECK(n > 0, "read: %zd", n);
    buf[n] = 0;
    CT_OUT("reader: %s, read \"%s\"\n", ct_result_name(r, 0), buf);
    reader_done = 1;
    return k;
}
static cpc_continuation *reader__cps(cpc_continuation *k, int fd)
{
    struct reader__frame_1 *cpc_f = CPC_PUSH(k, struct reader__frame_1);
    cpc_f->fd = fd;
    cpc_f->cpc_fn = reader__resume_1;
    return cpc_io_wait__cps(k, fd, CPC_IO_IN, NULL);
}
CT_DEFINE_SPAWN1(reader, int)

/* cps void writer(int fd) { cpc_sleep(0, 10000); write(fd, "hello", 5); } */
static cpc_continuation *writer__resume_1(cpc_continuation *k)
{
    struct writer__frame_1 *cpc_f = CPC_POP(k, struct writer__frame_1);
    CT_OUT("writer: write\n");
    CT_CHECK(write(cpc_f->fd, "hello", 5) == 5, "write");
    return k;
}
static cpc_continuation *writer__cps(cpc_continuation *k, int fd)
{
    struct writer__frame_1 *cpc_f = CPC_PUSH(k, struct writer__frame_1);
    cpc_f->fd = fd;
    cpc_f->cpc_fn = writer__resume_1;
    return cpc_sleep__cps(k, 0, 10000, NULL);
}
CT_DEFINE_SPAWN1(writer, int)

/* cps void filler(int fd) { fill the pipe; r = cpc_io_wait(fd, OUT); ... } */
static cpc_continuation *filler__resume_1(cpc_continuation *k)
{
    struct filler__frame_1 *cpc_f = CPC_POP(k, struct filler__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");
    CT_CHECK(r > 0, "cpc_io_wait: %d", r);
    CT_OUT("filler: %s, write %s\n", ct_result_name(r, 0),
           write(cpc_f->fd, "x", 1) == 1 ? "ok" : "failed");
    return k;
}
static cpc_continuation *filler__cps(cpc_continuation *k, int fd)
{
    char block[4096];
    memset(block, 'x', sizeof block);
    fcntl(fd, F_SETFL, O_NONBLOCK);
    while (write(fd, block, sizeof block) > 0)
        ;
    CT_CHECK(errno == EAGAIN, "filling the pipe: %s", strerror(errno));
    CT_OUT("filler: pipe full, waiting\n");
    struct filler__frame_1 *cpc_f = CPC_PUSH(k, struct filler__frame_1);
    cpc_f->fd = fd;
    cpc_f->cpc_fn = filler__resume_1;
    return cpc_io_wait__cps(k, fd, CPC_IO_OUT, NULL);
}
CT_DEFINE_SPAWN1(filler, int)

/* cps void drainer(int fd) {
       do cpc_sleep(0, 1000); while (!reader_done);
       read 64 KiB;
   } */
static cpc_continuation *drainer__cps(cpc_continuation *k, int fd);
static cpc_continuation *drainer__resume_1(cpc_continuation *k)
{
    struct drainer__frame_1 *cpc_f = CPC_POP(k, struct drainer__frame_1);
    if (!reader_done)
        return drainer__cps(k, cpc_f->fd);
    static char buf[1 << 16];
    CT_OUT("drainer: read\n");
    CT_CHECK(read(cpc_f->fd, buf, sizeof buf) > 0, "read");
    return k;
}
static cpc_continuation *drainer__cps(cpc_continuation *k, int fd)
{
    struct drainer__frame_1 *cpc_f = CPC_PUSH(k, struct drainer__frame_1);
    cpc_f->fd = fd;
    cpc_f->cpc_fn = drainer__resume_1;
    return cpc_sleep__cps(k, 0, 1000, NULL);
}
CT_DEFINE_SPAWN1(drainer, int)

int main(void)
{
    CT_CHECK_ERRNO(pipe(p1) == 0 && pipe(p2) == 0, "pipe");
    reader__spawn(p1[0]);
    writer__spawn(p1[1]);
    filler__spawn(p2[1]);
    drainer__spawn(p2[0]);
    cpc_main_loop();
    close(p1[0]); close(p1[1]); close(p2[0]); close(p2[1]);
    CT_OUT("done\n");
    return 0;
}
