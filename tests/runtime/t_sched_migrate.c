/* Threads migrate between two schedulers driven by two OS threads:
   cpc_link to a scheduler moves a thread there (cpc_link returns
   cpc_default_sched: it was attached), cpc_scheduler_self() says where it
   runs, each scheduler's counter is touched only by its own OS thread
   (TSan would see two threads of one scheduler running in parallel), a
   thread spawned with cpc_spawn_continuation_on starts on the given
   scheduler, and both loops return when every thread has ended. */
#include "cps_test.h"

#include <pthread.h>

#define ROVERS 8
#define TRIPS 200

static cpc_sched *sched[2];
static long hops_on[2];             /* touched by sched[i]'s threads only */
static int rovers_done;             /* __atomic */
static int started_on_second;       /* sched[1] */

CPC_FRAMES_BEGIN
struct rover__frame { int id; int i; cpc_function *cpc_fn; };
struct rover__spawn { int id; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *rover__body(cpc_continuation *k, int cpc_resume,
                                     int id, int i);
static cpc_continuation *rover__resume_1(cpc_continuation *k) { return rover__body(k, 1, 0, 0); }

/* cps void rover(int id) {
       for (i = 0; i < TRIPS; i++) {
           cpc_sched *to = sched[(id + i + 1) % 2];
           prev = cpc_link(to);                 // cpc_default_sched
           assert(cpc_scheduler_self() == to);
           hops_on[that index]++;
       } } */
static cpc_continuation *rover__body(cpc_continuation *k, int cpc_resume,
                                     int id, int i)
{
    struct rover__frame *cpc_f;
    if (cpc_resume == 1)
        goto resumed;
    if (cpc_scheduler_self() == sched[1])
        started_on_second++;
    for (i = 0; i < TRIPS; i++) {
        cpc_f = CPC_PUSH(k, struct rover__frame);
        cpc_f->id = id;
        cpc_f->i = i;
        cpc_f->cpc_fn = rover__resume_1;
        return cpc_link__cps(k, sched[(id + i + 1) % 2]);
    resumed:
        cpc_f = CPC_POP(k, struct rover__frame);
        id = cpc_f->id;
        i = cpc_f->i;
        cpc_sched *prev;
        CPC_RESULT(prev, cpc_f);
        CT_CHECK(prev == cpc_default_sched, "cpc_link returned %p", (void *)prev);
        int where = (id + i + 1) % 2;
        CT_CHECK(cpc_scheduler_self() == sched[where], "rover %d trip %d not on "
                 "scheduler %d", id, i, where);
        CT_CHECK(cpc_get_sched(k) == cpc_default_sched, "not attached");
        hops_on[where]++;
    }
    __atomic_add_fetch(&rovers_done, 1, __ATOMIC_RELAXED);
    return k;
}

static cpc_continuation *rover__start(cpc_continuation *k)
{
    struct rover__spawn *a = CPC_POP(k, struct rover__spawn);
    return rover__body(k, 0, a->id, 0);
}

/* cpc_spawn rover(id), on scheduler s. */
static void rover__spawn_on(cpc_sched *s, int id)
{
    cpc_continuation *sk = cpc_continuation_new(sizeof(struct rover__spawn));
    struct rover__spawn *a = CPC_PUSH(sk, struct rover__spawn);
    a->id = id;
    a->cpc_fn = rover__start;
    cpc_spawn_continuation_on(s, sk);
}

static void *drive(void *s)
{
    cpc_scheduler_run(s);
    return NULL;
}

int main(void)
{
    pthread_t t;
    sched[0] = cpc_scheduler_default();
    sched[1] = cpc_scheduler_new();
    CT_CHECK_ERRNO(sched[1] != NULL, "cpc_scheduler_new");
    CT_CHECK(sched[1] != sched[0], "new scheduler");
    CT_CHECK(cpc_scheduler_self() == sched[0], "main thread: default scheduler");
    for (int id = 0; id < ROVERS; id++)
        rover__spawn_on(sched[id % 2], id);
    CT_CHECK_RC(pthread_create(&t, NULL, drive, sched[1]));
    cpc_main_loop();
    CT_CHECK(pthread_join(t, NULL) == 0, "pthread_join");
    CT_CHECK(rovers_done == ROVERS, "%d rovers done", rovers_done);
    CT_CHECK(hops_on[0] + hops_on[1] == (long)ROVERS * TRIPS, "hops %ld + %ld",
             hops_on[0], hops_on[1]);
    CT_CHECK_ERRNO(cpc_scheduler_free(sched[1]) == 0, "free");
    CT_CHECK(cpc_scheduler_free(sched[0]) == -1 && errno == EINVAL,
             "the default scheduler cannot be freed");
    CT_OUT("%d rovers started on the second scheduler\n", started_on_second);
    CT_OUT("hops: %ld to the default scheduler, %ld to the second\n",
           hops_on[0], hops_on[1]);
    return 0;
}
