/* cpc_continuation_new(size) for every size around the allocator's size
   classes, on the scheduler's thread (the inline slab path) and on another
   OS thread (the general path), and again after that thread freed slots of
   this one (the remote frees the slab path takes back): the room is at
   least `size` bytes, usable to its end (valgrind and the debug runtime
   see an overrun), the header is that of an empty continuation, and
   continuations alive together are distinct.  A spawn's arguments are
   pushed into exactly that room without a check (CPC_PUSH_RESERVED), so a
   class one size too small would corrupt the next slot. */
#include "cps_test.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIZE 300
#define ALIVE 3

static int check_sizes(const char *where)
{
    int bad = 0;
    for (size_t size = 0; size <= MAX_SIZE; size++) {
        cpc_continuation *k[ALIVE];
        for (int j = 0; j < ALIVE; j++) {
            k[j] = cpc_continuation_new(size);
            if (k[j]->size < size || k[j]->length != 0 || k[j]->cpc_next != NULL) {
                printf("%s: size %zu: room %u, length %u, next %p\n", where,
                       size, k[j]->size, k[j]->length, (void *)k[j]->cpc_next);
                bad++;
            }
            memset(k[j]->c, 0xa0 + j, k[j]->size);
        }
        for (int j = 0; j < ALIVE; j++) {
            for (uint32_t b = 0; b < k[j]->size; b++)
                if (k[j]->c[b] != (unsigned char)(0xa0 + j)) {
                    printf("%s: size %zu: byte %u of continuation %d overwritten\n",
                           where, size, b, j);
                    bad++;
                    break;
                }
        }
        for (int j = 0; j < ALIVE; j++)
            cpc_continuation_free(k[j]);
    }
    return bad;
}

/* `n` continuations alive together (small sizes: slab slots, more than
   a slab of each class holds): each holds its own number at both ends of
   its room, which a slot given out twice would overwrite. */
#define MANY 20000
static int check_distinct(int n)
{
    cpc_continuation **k = malloc(sizeof *k * (size_t)n);
    int bad = 0;
    if (k == NULL)
        return 1;
    for (int i = 0; i < n; i++) {
        k[i] = cpc_continuation_new((size_t)(i % 48) + 1);
        memcpy(k[i]->c, &i, sizeof i);
        memcpy(k[i]->c + k[i]->size - sizeof i, &i, sizeof i);
    }
    for (int i = 0; i < n; i++) {
        int head, tail;
        memcpy(&head, k[i]->c, sizeof head);
        memcpy(&tail, k[i]->c + k[i]->size - sizeof tail, sizeof tail);
        if (head != i || tail != i) {
            if (bad++ < 3)
                printf("continuation %d shares its room with %d\n", i,
                       head != i ? head : tail);
        }
    }
    for (int i = 0; i < n; i++)
        cpc_continuation_free(k[i]);
    free(k);
    return bad;
}

#define HANDED 200
static cpc_continuation *handed[HANDED];

/* Checks the general path, then frees continuations the scheduler's
   thread made (slab slots: freed remotely). */
static void *other_thread(void *arg)
{
    *(int *)arg = check_sizes("other OS thread");
    for (int i = 0; i < HANDED; i++)
        cpc_continuation_free(handed[i]);
    return NULL;
}

int main(void)
{
    int bad_here = check_sizes("scheduler's thread"), bad_there = -1;
    pthread_t t;
    for (int i = 0; i < HANDED; i++)
        handed[i] = cpc_continuation_new((size_t)(i % 48) + 1);
    if (pthread_create(&t, NULL, other_thread, &bad_there) != 0)
        return 1;
    pthread_join(t, NULL);
    /* the slots the other thread freed come back to this one when its
       slabs run out: enough live continuations to run out, each distinct */
    bad_here += check_sizes("scheduler's thread, again");
    bad_here += check_distinct(MANY);
    printf("sizes 0..%d: %d bad here, %d bad on another OS thread\n",
           MAX_SIZE, bad_here, bad_there);
    return 0;
}
