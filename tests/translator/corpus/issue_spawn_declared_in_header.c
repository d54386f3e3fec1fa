/* Spawning a cps function declared in a header, defined later in the file, and a
   function spawning itself.  corpus-own-main */
#include "corpus.h"
#include "spawn_later.h"

int done;

int main(void)
{
#ifdef CORPUS_CPC
    cpc_spawn later(3);
    cpc_spawn selfish(2);
    cpc_main_loop();
#else
    later(3);
    selfish(2);
#endif
    printf("done %d\n", done);
    return 0;
}

CPS void later(int n)
{
    printf("later %d\n", n);
    done++;
}

CPS void selfish(int n)
{
    printf("selfish %d\n", n);
    done++;
    if (n > 0) {
#ifdef CORPUS_CPC
        cpc_spawn selfish(n - 1);
#else
        selfish(n - 1);
#endif
    }
}
