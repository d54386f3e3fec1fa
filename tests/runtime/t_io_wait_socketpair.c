/* cpc_io_wait on a socketpair: several threads wait on the same fd and
   direction and all wake, in wait order, on one event; a thread waiting
   for IN|OUT gets the ready direction only; both ends, both directions.
   Each writer writes once a given number of waiters have woken (polling
   with short sleeps), so the order of the output does not depend on how
   fast the machine is (under valgrind on a loaded machine, a fixed delay
   could expire before the first poll had woken the OUT waiters). */
#include "cps_test.h"
#include <sys/socket.h>

static int sv[2];
static int woken;       /* waiters that have returned */

CPC_FRAMES_BEGIN
struct waiter__frame_1 { int id; int fd; cpc_function *cpc_fn; };
struct writer__frame_1 { int fd; int need; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void waiter(int id, int fd, int dir) { r = cpc_io_wait(fd, dir); } */
static cpc_continuation *waiter__resume_1(cpc_continuation *k)
{
    struct waiter__frame_1 *cpc_f = CPC_POP(k, struct waiter__frame_1);
    int r;
    CPC_RESULT(r, cpc_f);
    CT_CHECK_ERRNO(r >= 0, "cpc_io_wait");
    CT_OUT("waiter %d on end %d: %s\n", cpc_f->id, cpc_f->fd == sv[0] ? 0 : 1,
           ct_result_name(r, errno));
    woken++;
    return k;
}
static cpc_continuation *waiter__cps(cpc_continuation *k, int id, int fd,
                                     int dir)
{
    struct waiter__frame_1 *cpc_f = CPC_PUSH(k, struct waiter__frame_1);
    cpc_f->id = id;
    cpc_f->fd = fd;
    cpc_f->cpc_fn = waiter__resume_1;
    return cpc_io_wait__cps(k, fd, dir, NULL);
}
CT_DEFINE_SPAWN3(waiter, int, int, int)

/* cps void writer(int fd, int need) {
       do cpc_sleep(0, 1000); while (woken < need);
       write(fd, "x", 1);
   } */
static cpc_continuation *writer__cps(cpc_continuation *k, int fd, int need);
static cpc_continuation *writer__resume_1(cpc_continuation *k)
{
    struct writer__frame_1 *cpc_f = CPC_POP(k, struct writer__frame_1);
    if (woken < cpc_f->need)
        return writer__cps(k, cpc_f->fd, cpc_f->need);
    CT_OUT("write on end %d\n", cpc_f->fd == sv[0] ? 0 : 1);
    CT_CHECK(write(cpc_f->fd, "x", 1) == 1, "write");
    return k;
}
static cpc_continuation *writer__cps(cpc_continuation *k, int fd, int need)
{
    struct writer__frame_1 *cpc_f = CPC_PUSH(k, struct writer__frame_1);
    cpc_f->fd = fd;
    cpc_f->need = need;
    cpc_f->cpc_fn = writer__resume_1;
    return cpc_sleep__cps(k, 0, 1000, NULL);
}
CT_DEFINE_SPAWN2(writer, int, int)

int main(void)
{
    CT_CHECK_ERRNO(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
    waiter__spawn(1, sv[0], CPC_IO_IN);
    waiter__spawn(2, sv[0], CPC_IO_IN);
    waiter__spawn(3, sv[0], CPC_IO_IN | CPC_IO_OUT);  /* writable now */
    waiter__spawn(4, sv[0], CPC_IO_IN);
    waiter__spawn(5, sv[1], CPC_IO_OUT);              /* writable now */
    waiter__spawn(6, sv[1], CPC_IO_IN);
    writer__spawn(sv[1], 2);      /* after 3 and 5; wakes 1, 2, 4 */
    writer__spawn(sv[0], 5);      /* after those; wakes 6 */
    cpc_main_loop();
    close(sv[0]);
    close(sv[1]);
    CT_OUT("done\n");
    return 0;
}
