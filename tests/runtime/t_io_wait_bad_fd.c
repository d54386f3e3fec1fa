/* cpc_io_wait errors: -1 with errno EBADF for a negative, closed or never
   opened fd; EINVAL for a bad direction; a regular file is always ready.
   And an fd closed and reused under the same number works again. */
#include "cps_test.h"
#include <fcntl.h>

CPC_FRAMES_BEGIN
struct checker__frame_1 { int step; int fd; cpc_function *cpc_fn; };
struct writer__frame_1 { int fd; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void writer(int fd) { cpc_yield(); write(fd, "x", 1); } */
static cpc_continuation *writer__resume_1(cpc_continuation *k)
{
    struct writer__frame_1 *cpc_f = CPC_POP(k, struct writer__frame_1);
    CT_CHECK(write(cpc_f->fd, "x", 1) == 1, "write");
    return k;
}
static cpc_continuation *writer__cps(cpc_continuation *k, int fd)
{
    struct writer__frame_1 *cpc_f = CPC_PUSH(k, struct writer__frame_1);
    cpc_f->fd = fd;
    cpc_f->cpc_fn = writer__resume_1;
    return cpc_yield__cps(k);
}
CT_DEFINE_SPAWN1(writer, int)

static cpc_continuation *checker__body(cpc_continuation *k, int cpc_resume,
                                       int step, int fd);
static cpc_continuation *checker__resume_1(cpc_continuation *k)
{
    return checker__body(k, 1, 0, 0);
}
static cpc_continuation *checker__cps(cpc_continuation *k)
{
    return checker__body(k, 0, 0, -1);
}

/* cps void checker(void): for each case, r = cpc_io_wait(...); print r. */
static cpc_continuation *checker__body(cpc_continuation *k, int cpc_resume,
                                       int step, int fd)
{
    static int pfd[2];
    int r, dir, old;
    switch (cpc_resume) {
    case 1: goto checker__resumed_1;
    }
    for (step = 0; step < 8; step++) {
        dir = CPC_IO_IN;
        switch (step) {
        case 0: fd = -1; break;
        case 1: fd = open("/dev/null", O_RDONLY); close(fd); break;
        case 2: fd = 1000; break;
        case 3: fd = 0; dir = 0; break;
        case 4: fd = 0; dir = 16; break;
        case 5: fd = open("/proc/self/exe", O_RDONLY); dir = CPC_IO_OUT; break;
        case 6:
            CT_CHECK_ERRNO(pipe(pfd) == 0, "pipe");
            writer__spawn(pfd[1]);
            fd = pfd[0];
            break;
        case 7:
            /* The pipe of case 6, waited on, closed, and a new pipe in the
               same fds. */
            old = pfd[0];
            close(pfd[0]);
            close(pfd[1]);
            CT_CHECK(pipe(pfd) == 0 && pfd[0] == old, "fd not reused");
            writer__spawn(pfd[1]);
            fd = pfd[0];
            break;
        }
        errno = 0;
        {
            struct checker__frame_1 *cpc_f = CPC_PUSH(k, struct checker__frame_1);
            cpc_f->step = step;
            cpc_f->fd = fd;
            cpc_f->cpc_fn = checker__resume_1;
            return cpc_io_wait__cps(k, fd, dir, NULL);
        }
    checker__resumed_1: {
            struct checker__frame_1 *cpc_f = CPC_POP(k, struct checker__frame_1);
            step = cpc_f->step;
            fd = cpc_f->fd;
            CPC_RESULT(r, cpc_f);
        }
        CT_CHECK_ERRNO(r >= 0 || errno != ENOMEM, "cpc_io_wait");
        CT_OUT("case %d: %s%s\n", step, ct_result_name(r, errno),
               r >= 0 ? "" : errno == EBADF ? " EBADF" :
               errno == EINVAL ? " EINVAL" : " other errno");
        if (step == 5)
            close(fd);
    }
    close(pfd[0]);
    close(pfd[1]);
    return k;
}
CT_DEFINE_SPAWN0(checker)

int main(void)
{
    checker__spawn();
    cpc_main_loop();
    CT_OUT("done\n");
    return 0;
}
