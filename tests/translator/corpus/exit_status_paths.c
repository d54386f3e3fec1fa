/* The exit status comes from main's return value, and from exit() called deep inside
   cps code. */
#include "corpus.h"

CPS void pause(void) { }
CPS void leave_if(int v) { pause(); if (v == 3) { printf("exit at %d\n", v); fflush(stdout); exit(42); } }

int main(void)
{
    for (int i = 0; i < 5; i++) {
        printf("step %d\n", i);
        leave_if(i);
    }
    return 7;
}
