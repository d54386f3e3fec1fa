/* A spawned thread is queued at the tail of the run queue, after the
   threads already runnable, both where optimised code spawns inline (cps
   code in a scheduler's loop: the header's macro) and where it calls
   cpc_spawn_continuation (native code before the loop runs). */
#include "cps_test.h"

/* cps void printer(int id) { printf("runs %d\n", id); } */
static cpc_continuation *printer__cps(cpc_continuation *k, int id)
{
    CT_OUT("runs %d\n", id);
    return k;
}
CT_DEFINE_SPAWN1(printer, int)

/* cps void spawner(int id) { cpc_spawn printer(id); printf(...); } */
static cpc_continuation *spawner__cps(cpc_continuation *k, int id)
{
    printer__spawn(id);
    CT_OUT("spawned %d\n", id);
    return k;
}
CT_DEFINE_SPAWN1(spawner, int)

int main(void)
{
    spawner__spawn(3);
    printer__spawn(1);
    printer__spawn(2);
    cpc_main_loop();
    CT_OUT("done\n");
    return 0;
}
