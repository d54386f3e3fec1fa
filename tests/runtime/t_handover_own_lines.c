/* What threads of two schedulers write to hand each other threads -- a
   shared condvar (its wait list and lock) and a scheduler (its inbox) --
   starts on a cache line of its own, whatever was allocated before it:
   two shared condvars allocated one after the other, which a ping-pong
   between two schedulers signals and waits on in turn, would otherwise
   share a line that moves from core to core at every use of either
   (bench/multicore's ping-pong: about 10% per pass). */
#include "cps_test.h"
#include <stdint.h>
#include <stdlib.h>

#define LINE 64
#define N 8

int main(void)
{
    void *filler[2 * N];
    cpc_condvar *cv[N];
    cpc_sched *s[N / 2];
    int off_line = 0;
    for (int i = 0; i < N; i++) {
        filler[i] = malloc(8 + 16 * (size_t)i);   /* shift the heap */
        cv[i] = cpc_condvar_get_shared();
        CT_CHECK(cv[i] != NULL, "cpc_condvar_get_shared");
        off_line += (uintptr_t)cv[i] % LINE != 0;
    }
    for (int i = 0; i < N / 2; i++) {
        filler[N + i] = malloc(24 + 16 * (size_t)i);
        s[i] = cpc_scheduler_new();
        CT_CHECK(s[i] != NULL, "cpc_scheduler_new");
        off_line += (uintptr_t)s[i] % LINE != 0;
    }
    CT_OUT("%d shared condvars, %d schedulers: %d not on a line of their own\n",
           N, N / 2, off_line);
    for (int i = 0; i < N; i++)
        cpc_condvar_release(cv[i]);
    for (int i = 0; i < N / 2; i++)
        CT_CHECK(cpc_scheduler_free(s[i]) == 0, "cpc_scheduler_free");
    for (int i = 0; i < N + N / 2; i++)
        free(filler[i]);
    return 0;
}
