/* GNU function attributes that say how a function's code is compiled (`target`, `optimize`,
   `no_sanitize`, `no_instrument_function`, ...) hold for a cps function's code wherever the
   translator puts it (its entry, its body, its resume functions): an SSE 4.2 intrinsic (an
   always-inline function of that target) did not build outside the entry, and `wrapv` changes
   what signed overflow computes.  Clang ignores `optimize`: it is read where it is written,
   also when the function is rendered with its macros expanded (`wraps_rendered`, whose cps
   call comes out of a macro), and a statement spawned in such a function is compiled as the
   code around it (`crc_spawned`). */
#include "corpus.h"
#include <limits.h>
#include <nmmintrin.h>

CPS long seen(long v) { return v; }

__attribute__((target("sse4.2"))) CPS unsigned crc(const unsigned *v, int n)
{
    unsigned c = 0xffffffffu;
    for (int i = 0; i < n; i++) {
        c = _mm_crc32_u32(c, v[i]);
        seen(i);
    }
    return c ^ _mm_crc32_u32(0, (unsigned)seen(n));
}

static unsigned spawned_crc;

__attribute__((target("sse4.2"))) CPS void crc_spawned(unsigned x)
{
    seen(x);
#ifdef CORPUS_CPC
    cpc_spawn
#endif
    {
        spawned_crc = _mm_crc32_u32(x, x);
        seen(0);
        spawned_crc = _mm_crc32_u32(spawned_crc, 7);
    }
}

/* (gcc folds `x + 1 > x` to 1 for a signed x unless overflow wraps) */
__attribute__((optimize("wrapv"))) CPS int wraps(int x)
{
    int before = x;
    seen(x);
    return x + 1 > before;
}

#define SEEN(v) seen(v)

__attribute__((optimize("wrapv"))) CPS int wraps_rendered(int x)
{
    int before = x;
    SEEN(x);
    return x + 1 > before;
}

int main(void)
{
    unsigned v[4] = { 1, 2, 3, 0xdeadbeef };
    crc_spawned(5);
#ifdef CORPUS_CPC
    for (int i = 0; i < 3; i++)
        cpc_yield();
#endif
    printf("%08x %d %d %d %08x\n", crc(v, 4), wraps(INT_MAX), wraps(3), wraps_rendered(INT_MAX),
           spawned_crc);
    return 0;
}
