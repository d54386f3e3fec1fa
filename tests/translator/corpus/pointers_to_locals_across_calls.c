/* Addresses of locals (scalars, arrays, structs) passed to cps callees that write
   through them after suspending; pointers into the caller's frame stay valid. */
#include "corpus.h"

struct acc { int n; long sum; };

CPS void pause(void) { }
CPS void add(struct acc *a, int v) { pause(); a->n++; a->sum += v; }
CPS void fill(int *dst, int n) { for (int i = 0; i < n; i++) { pause(); dst[i] = i * 3; } }
CPS void swap(int *a, int *b) { int t = *a; pause(); *a = *b; *b = t; }

int main(void)
{
    struct acc a = {0, 0};
    int buf[6], x = 1, y = 2;
    int *px = &x;
    fill(buf, 6);
    for (int i = 0; i < 6; i++) add(&a, buf[i]);
    swap(px, &y);
    printf("%d %ld %d %d %d\n", a.n, a.sum, buf[5], x, y);
    return 0;
}
