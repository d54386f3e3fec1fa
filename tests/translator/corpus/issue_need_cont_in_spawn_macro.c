/* Primitives that need the continuation, reached through a macro inside a cpc_spawn
   body.  corpus-own-main */
#include "corpus.h"

#ifdef CORPUS_CPC
#define DETACHED() cpc_is_detached()
#define NOW_OK() (cpc_time() >= 0)
#define HAS_SCHED() (cpc_get_sched() != NULL)
#else
#define DETACHED() 0
#define NOW_OK() 1
#define HAS_SCHED() 0
#endif

static int seen;

int main(void)
{
#ifdef CORPUS_CPC
    cpc_spawn {
        seen = DETACHED() * 100 + NOW_OK() * 10 + HAS_SCHED() * 0;
        printf("%d\n", seen);
    }
    cpc_main_loop();
#else
    seen = DETACHED() * 100 + NOW_OK() * 10 + HAS_SCHED() * 0;
    printf("%d\n", seen);
#endif
    return seen == 10 ? 0 : 1;
}
