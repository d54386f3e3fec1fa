/* 6.8.5 iteration statements with cps calls everywhere: nested loops, break and
   continue in each kind, a loop whose body is a single cps call, an infinite for(;;). */
#include "corpus.h"

static int ticks;
CPS void tick(void) { ticks++; }
CPS int lt(int a, int b) { return a < b; }

int main(void)
{
    int s = 0;
    for (int i = 0; lt(i, 4); i++) {
        if (i == 1) continue;
        for (int j = 0; ; j++) {
            if (!lt(j, i)) break;
            s += j;
            tick();
        }
    }
    int k = 0;
    while (1) {
        tick();
        if (++k == 3) break;
    }
    do tick(); while (lt(k++, 6));
    for (;;) { if (ticks > 20) break; tick(); }
    while (lt(ticks, 25)) tick();
    printf("%d %d %d\n", s, k, ticks);
    return 0;
}
