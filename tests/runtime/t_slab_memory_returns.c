/* Small continuations come from slabs (runtime/cpc_continuation.c), and a
   slab whose last slot is freed goes back to the system beyond a small
   cache of empty ones -- also a slab that was full, which leaves every
   list until its first slot is freed and keeps a stand-in count meanwhile.
   Three rounds fill a few hundred slabs of each class to the brim and free
   every slot, in allocation order and in reverse: the resident set must
   come back each time, or a slab's count is wrong and its memory stays. */
#include "cps_test.h"

#define N 300000            /* 32-byte slots: about 150 slabs of 64 KiB */
#define ROUNDS 3

int main(void)
{
    static cpc_continuation *k[N];
    long before = ct_rss_bytes(), worst = 0;
    for (int round = 0; round < ROUNDS; round++) {
        size_t size = (size_t)16 * (round + 1);    /* each slab class */
        for (int i = 0; i < N; i++) {
            k[i] = cpc_continuation_new(size);
            memset(k[i]->c, 0x5a, k[i]->size);
        }
        long full = ct_rss_bytes() - before;
        CT_CHECK(full > (long)N * 32, "round %d: %ld bytes resident for %d "
                 "continuations: not from slabs?", round, full, N);
        for (int i = 0; i < N; i++)
            cpc_continuation_free(k[round % 2 ? N - 1 - i : i]);
        long left = ct_rss_bytes() - before;
        if (left > worst)
            worst = left;
    }
    /* Up to four empty slabs (256 KiB) stay cached, and the pages of the
       array k stay touched; a slab count off by one would keep every slab
       that was once full, megabytes. */
    CT_CHECK(worst < 1024 * 1024 + (long)sizeof k, "%ld bytes still resident "
             "after freeing every continuation", worst);
    CT_OUT("%d rounds of %d continuations: memory returned\n", ROUNDS, N);
    return 0;
}
