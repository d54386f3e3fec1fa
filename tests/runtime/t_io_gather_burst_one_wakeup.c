/* A scheduler that runs out of work while many threads (at least 256) wait
   for fds sleeps a moment before it waits for the first event, and takes
   together what arrived meanwhile: 300 readers wait, nothing is ready, all
   300 pipes get their byte during that moment, and the scheduler serves
   them all without sleeping in epoll_wait (runtime/cpc_io.c, "gathering
   events before a sleep").  Without the gathering, it would sleep in
   epoll_wait and be woken by the first byte. */
#define N_PIPES 300
#include "io_gather_wrap.h"

static void arrive_all(void)
{
    while (next_write < N_PIPES)
        arrive(next_write++);
}

static void arrive_while_sleeping(void) { arrive_all(); }
static void arrive_while_gathering(void) { arrive_all(); }

int main(void)
{
    start_readers();
    cpc_main_loop();
    CT_CHECK(woken == N_PIPES, "%d of %d readers woken", woken, N_PIPES);
    CT_CHECK(gathers == 1, "%d gathering sleeps, expected 1", gathers);
    CT_CHECK(sleeps == 0, "%d sleeps in epoll_wait, expected none", sleeps);
    CT_OUT("%d readers served after one gathering sleep\n", N_PIPES);
    return 0;
}
