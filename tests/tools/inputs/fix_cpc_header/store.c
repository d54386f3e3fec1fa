/* A table of cooperative functions holding a function of CPC's runtime:
   cpc-check reports it, and --fix leaves CPC's own header alone. */
#include <cpc/cpc_runtime.h>
#define coroutine_fn
typedef struct Driver { int coroutine_fn (*run)(cpc_sched *s); } Driver;
int coroutine_fn co_run(cpc_sched *s) { return s != 0; }
const Driver drivers[] = { { co_run }, { cpc_scheduler_run_once } };
