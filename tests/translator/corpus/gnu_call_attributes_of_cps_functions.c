/* GNU attributes about the calls of a function (`noinline`, `noipa`, `noclone`,
   `always_inline` with `static inline`, `flatten`) and about how often it runs (`cold`,
   `hot`) keep their meaning on a cps function: its calls are calls of its entry, its code
   is its body and resume functions, and the program computes what gcc computes.  A
   function placed in a section is there (its entry, the symbol its name denotes), also
   when the attribute is written on a prototype only.  corpus-flags: -Wall -Werror */
#include "corpus.h"

#define SECTION __attribute__((section("corpus_calls"), used))

CPS int seen(int v) { return v; }

__attribute__((noinline)) CPS int add1(int x) { return x + 1; }
__attribute__((noipa)) CPS int add2(int x) { return seen(x) + 2; }
__attribute__((noclone, noinline)) CPS int scale(int x, int k) { return x * k; }
static inline __attribute__((always_inline)) CPS int twice(int x) { return 2 * x; }
static inline CPS int thrice(int x) { return 3 * x; }
__attribute__((flatten)) CPS int flat(int x) { return twice(add1(seen(x))) + thrice(x); }
__attribute__((cold)) CPS int rare(int x) { return seen(x) - 1; }
__attribute__((hot)) CPS int often(int x) { return seen(x) + 1; }
CPS int placed(int x) SECTION;
CPS int placed(int x) { return seen(x) * 5; }

extern const char __start_corpus_calls[], __stop_corpus_calls[];

static int in_section(const void *p)
{
    return (const char *)p >= __start_corpus_calls && (const char *)p < __stop_corpus_calls;
}

int main(void)
{
    int x = 0;
    for (int i = 0; i < 1000; i++)
        x = add1(x);
    for (int i = 0; i < 10; i++)
        x = add2(x);
    x = scale(x, 3);
    printf("%d %d %d %d\n", x, flat(4), rare(7), often(7));
    printf("placed %d in section %d\n", placed(2), in_section((const void *)placed));
    printf("add1 in section %d\n", in_section((const void *)add1));
    return 0;
}
