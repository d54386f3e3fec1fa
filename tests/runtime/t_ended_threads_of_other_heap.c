/* A thread whose continuation comes from another scheduler's heap (made
   on that scheduler's OS thread, spawned onto the default scheduler) and
   ends in the default scheduler's loop goes back to its own heap through
   that heap's remote list: the loop frees inline only the slots of the
   default scheduler's heap (cpc__cont_free_default_inline).  The other
   scheduler keeps allocating from the same slabs meanwhile, so a slot
   pushed straight onto its slab from the default loop's OS thread would
   be a data race (TSan) and could hand one slot out twice (the checks of
   ids below). */
#include "cps_test.h"

#include <pthread.h>

#define N 20000
#define BATCH 64

static cpc_sched *other;
static int ended;                   /* the default scheduler's thread only */
static unsigned char seen[N];       /* the same */

CPC_FRAMES_BEGIN
struct spawner__frame { int i; cpc_function *cpc_fn; };
CPC_FRAMES_END

/* cps void child(int id) -- on the default scheduler. */
static cpc_continuation *child__cps(cpc_continuation *k, int id)
{
    CT_CHECK(cpc_scheduler_self() == cpc_scheduler_default(),
             "child %d not on the default scheduler", id);
    CT_CHECK(id >= 0 && id < N && !seen[id], "child %d ran twice", id);
    seen[id] = 1;
    ended++;
    return k;
}

CPC_FRAMES_BEGIN
struct child__spawn { int a0; cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *child__spawn_start(cpc_continuation *k)
{
    struct child__spawn *a = CPC_POP_FIRST(k, struct child__spawn);
    return child__cps(k, a->a0);
}

/* cps void spawner(void) -- on the other scheduler: N children made there
   (from its heap) and spawned onto the default one, a yield every BATCH. */
static cpc_continuation *spawner__resume(cpc_continuation *k)
{
    struct spawner__frame *f = CPC_TOP(k, struct spawner__frame);
    CT_CHECK(cpc_scheduler_self() == other, "spawner moved");
    while (f->i < N) {
        cpc_continuation *c = cpc_continuation_new(sizeof(struct child__spawn));
        struct child__spawn *a = CPC_PUSH_FIRST(c, struct child__spawn);
        a->a0 = f->i++;
        a->cpc_fn = child__spawn_start;
        cpc_spawn_continuation_on(cpc_scheduler_default(), c);
        if (f->i % BATCH == 0)
            return cpc_yield__cps(k);
    }
    (void)CPC_POP(k, struct spawner__frame);
    return k;
}

static cpc_continuation *spawner__cps(cpc_continuation *k)
{
    struct spawner__frame *f = CPC_PUSH(k, struct spawner__frame);
    f->i = 0;
    f->cpc_fn = spawner__resume;
    return spawner__resume(k);
}

CPC_FRAMES_BEGIN
struct spawner__spawn { cpc_function *cpc_fn; };
CPC_FRAMES_END

static cpc_continuation *spawner__spawn_start(cpc_continuation *k)
{
    (void)CPC_POP_FIRST(k, struct spawner__spawn);
    return spawner__cps(k);
}

static void *drive(void *s)
{
    cpc_scheduler_run(s);
    return NULL;
}

int main(void)
{
    pthread_t t;
    other = cpc_scheduler_new();
    CT_CHECK_ERRNO(other != NULL, "cpc_scheduler_new");
    cpc_continuation *k = cpc_continuation_new(sizeof(struct spawner__spawn));
    struct spawner__spawn *a = CPC_PUSH_FIRST(k, struct spawner__spawn);
    a->cpc_fn = spawner__spawn_start;
    cpc_spawn_continuation_on(other, k);
    CT_CHECK_RC(pthread_create(&t, NULL, drive, other));
    cpc_main_loop();
    CT_CHECK(pthread_join(t, NULL) == 0, "pthread_join");
    CT_CHECK(ended == N, "%d of %d children ended", ended, N);
    CT_CHECK_ERRNO(cpc_scheduler_free(other) == 0, "cpc_scheduler_free");
    CT_OUT("%d threads from another scheduler's heap ended on the default one\n", N);
    return 0;
}
