/* main(int argc, char *argv[]) spawning a thread with argv[1].
   corpus-own-main  corpus-args: hello world */
#include "corpus.h"

CPS void greet(char *who, int n)
{
#ifdef CORPUS_CPC
    cpc_yield();
#endif
    printf("hello, %s (%d)\n", who, n);
}

int main(int argc, char *argv[])
{
#ifdef CORPUS_CPC
    cpc_spawn greet(argv[1], argc);
    cpc_spawn greet(argv[argc - 1], argc);
    cpc_main_loop();
#else
    greet(argv[1], argc);
    greet(argv[argc - 1], argc);
#endif
    return 0;
}
