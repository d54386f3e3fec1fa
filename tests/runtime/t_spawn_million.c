/* A million threads spawned and finished, twice: all spawned from main
   before the loop runs, then spawned by a cps thread in steady state (the
   continuation cache's case).  Times go to stderr. */
#include "cps_test.h"

#define N 1000000
static long sum;
static int finished;

CPC_FRAMES_BEGIN
struct spawner__frame_1 { int i; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void job(int i) { sum += i; finished++; } */
static cpc_continuation *job__cps(cpc_continuation *k, int i)
{
    sum += i;
    finished++;
    return k;
}
CT_DEFINE_SPAWN1(job, int)

/* cps void spawner(void)
   { for (i = 0; i < N; i++) { cpc_spawn job(i); if (i % 64 == 63) cpc_yield(); } } */
static cpc_continuation *spawner__body(cpc_continuation *k, int cpc_resume, int i);
static cpc_continuation *spawner__resume_1(cpc_continuation *k)
{
    return spawner__body(k, 1, 0);
}
static cpc_continuation *spawner__cps(cpc_continuation *k)
{
    return spawner__body(k, 0, 0);
}
static cpc_continuation *spawner__body(cpc_continuation *k, int cpc_resume, int i)
{
    switch (cpc_resume) {
    case 1: goto spawner__resumed_1;
    }
    for (i = 0; i < N; i++) {
        job__spawn(i);
        if (i % 64 == 63) {
            struct spawner__frame_1 *cpc_f = CPC_PUSH(k, struct spawner__frame_1);
            cpc_f->i = i;
            cpc_f->cpc_fn = spawner__resume_1;
            return cpc_yield__cps(k);
        spawner__resumed_1:
            cpc_f = CPC_POP(k, struct spawner__frame_1);
            i = cpc_f->i;
        }
    }
    return k;
}
CT_DEFINE_SPAWN0(spawner)

int main(void)
{
    double t = ct_now();
    for (int i = 0; i < N; i++)
        job__spawn(i);
    cpc_main_loop();
    t = ct_now() - t;
    CT_CHECK(finished == N && sum == (long)N * (N - 1) / 2, "finished %d", finished);
    fprintf(stderr, "spawn from main, then run: %.1f ns/thread\n", t * 1e9 / N);
    CT_OUT("%d threads spawned from main ran\n", N);

    finished = 0;
    sum = 0;
    t = ct_now();
    spawner__spawn();
    cpc_main_loop();
    t = ct_now() - t;
    CT_CHECK(finished == N && sum == (long)N * (N - 1) / 2, "finished %d", finished);
    fprintf(stderr, "spawn from a cps thread, steady state: %.1f ns/thread\n",
            t * 1e9 / N);
    CT_OUT("%d threads spawned from a thread ran\n", N);
    return 0;
}
