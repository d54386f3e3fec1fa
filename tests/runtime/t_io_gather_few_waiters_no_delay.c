/* A scheduler with fewer than 256 threads waiting for fds never delays
   its wake-up to gather events (runtime/cpc_io.c): a small server's
   latency is what one wake-up costs.  100 readers wait; one byte arrives
   each time the scheduler sleeps in epoll_wait; no gathering sleep. */
#define N_PIPES 100
#include "io_gather_wrap.h"

static void arrive_while_sleeping(void)
{
    if (next_write < N_PIPES)
        arrive(next_write++);
}

static void arrive_while_gathering(void) { arrive_while_sleeping(); }

int main(void)
{
    start_readers();
    cpc_main_loop();
    CT_CHECK(woken == N_PIPES, "%d of %d readers woken", woken, N_PIPES);
    CT_CHECK(gathers == 0, "%d gathering sleeps with %d waiters", gathers, N_PIPES);
    CT_CHECK(sleeps == N_PIPES, "%d sleeps for %d lone events", sleeps, N_PIPES);
    CT_OUT("%d lone events, %d sleeps, no gathering\n", N_PIPES, N_PIPES);
    return 0;
}
