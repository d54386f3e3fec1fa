/* Gathering events before a sleep delays them; a scheduler whose
   gatherings are followed by fewer than 2 events before it runs out of
   work again (one busy client among many idle connections) stops
   gathering, after four such misses, for its next 1, 2, 4 ... idle periods
   (runtime/cpc_io.c).  360 readers wait; one byte arrives in each idle
   period, whether the scheduler gathers or sleeps in epoll_wait; after 60
   such periods the rest arrive at once.  The scheduler gathered in the
   first four periods, then in the 6th, 9th, 14th, 23rd and 40th: 9 times,
   where without the back-off it would in every one (60). */
#define N_PIPES 360
#define LONE 60
#include "io_gather_wrap.h"

static void arrive_one(void)
{
    if (next_write < LONE)
        arrive(next_write++);
    else
        while (next_write < N_PIPES)
            arrive(next_write++);
}

static void arrive_while_sleeping(void) { arrive_one(); }
static void arrive_while_gathering(void) { arrive_one(); }

int main(void)
{
    start_readers();
    cpc_main_loop();
    CT_CHECK(woken == N_PIPES, "%d of %d readers woken", woken, N_PIPES);
    CT_CHECK(gathers == 9, "%d gathering sleeps in %d idle periods, expected 9",
             gathers, LONE);
    CT_CHECK(sleeps + gathers == LONE + 1, "%d sleeps and %d gatherings for %d "
             "lone events and a burst", sleeps, gathers, LONE);
    CT_OUT("%d lone events: the scheduler gathered in 9 of its idle periods\n",
           LONE);
    return 0;
}
