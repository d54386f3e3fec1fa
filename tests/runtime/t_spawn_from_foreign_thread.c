/* cpc_spawn_continuation from another OS thread while the loop runs: the
   threads go through the locked inbox and the eventfd wakes the loop. */
#include "cps_test.h"
#include <pthread.h>

#define N 2000
static int p[2];
static int ran;

CPC_FRAMES_BEGIN
struct keeper__frame { cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void job(int i) { ran++; } */
static cpc_continuation *job__cps(cpc_continuation *k, int i)
{
    (void)i;
    ran++;
    return k;
}
CT_DEFINE_SPAWN1(job, int)

/* cps void keeper(void) { cpc_io_wait(p[0], IN); } -- keeps the loop
   alive until the foreign thread is done. */
static cpc_continuation *keeper__resume_1(cpc_continuation *k)
{
    (void)CPC_POP(k, struct keeper__frame);
    return k;
}
static cpc_continuation *keeper__cps(cpc_continuation *k)
{
    struct keeper__frame *cpc_f = CPC_PUSH(k, struct keeper__frame);
    cpc_f->cpc_fn = keeper__resume_1;
    return cpc_io_wait__cps(k, p[0], CPC_IO_IN, NULL);
}
CT_DEFINE_SPAWN0(keeper)

static void *foreign(void *arg)
{
    (void)arg;
    for (int i = 0; i < N; i++) {
        job__spawn(i);
        if (i % 100 == 0)
            usleep(100);
    }
    CT_CHECK(write(p[1], "x", 1) == 1, "write");
    return NULL;
}

int main(void)
{
    pthread_t t;
    CT_CHECK_ERRNO(pipe(p) == 0, "pipe");
    keeper__spawn();
    CT_CHECK_RC(pthread_create(&t, NULL, foreign, NULL));
    cpc_main_loop();
    pthread_join(t, NULL);
    /* Spawns after the keeper left may still sit in the inbox: run them. */
    cpc_main_loop();
    CT_CHECK(ran == N, "ran %d threads of %d", ran, N);
    CT_OUT("%d threads spawned from a foreign thread ran\n", N);
    close(p[0]);
    close(p[1]);
    return 0;
}
