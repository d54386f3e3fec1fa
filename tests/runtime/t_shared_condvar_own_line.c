/* A shared condvar -- its wait list, magic and lock, which threads of
   several schedulers write -- starts on a cache line of its own, whatever
   was allocated before it: two shared condvars allocated one after the
   other, which a ping-pong between two schedulers on two cores signals
   and waits on in turn, would otherwise share a line that moves from
   core to core at every use of either (bench/multicore's ping-pong: about
   10% per pass when its two OS threads run on different cores). */
#include "cps_test.h"
#include <stdint.h>
#include <stdlib.h>

#define LINE 64
#define N 8

int main(void)
{
    void *filler[N];
    cpc_condvar *cv[N];
    int off_line = 0;
    for (int i = 0; i < N; i++) {
        filler[i] = malloc(8 + 16 * (size_t)i);   /* shift the heap */
        cv[i] = cpc_condvar_get_shared();
        CT_CHECK(cv[i] != NULL, "cpc_condvar_get_shared");
        off_line += (uintptr_t)cv[i] % LINE != 0;
    }
    CT_OUT("%d shared condvars: %d not on a line of their own\n", N, off_line);
    for (int i = 0; i < N; i++) {
        cpc_condvar_release(cv[i]);
        free(filler[i]);
    }
    return 0;
}
