/* Spawning a continuation that holds no frame is misuse: there is nothing
   to start the thread with.  Clear message, abort (not a jump to garbage
   when the scheduler runs it). */
#include "cps_test.h"

int main(void)
{
    cpc_continuation *k = cpc_continuation_new(64);
    cpc_spawn_continuation(k);
    cpc_main_loop();
    CT_OUT("not caught\n");
    return 0;
}
