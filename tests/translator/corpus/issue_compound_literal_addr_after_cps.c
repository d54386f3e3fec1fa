/* Compound literals whose address is used after a cps call live until the end of
   their block (C11 6.5.2.5p5). */
#include "corpus.h"

struct P { int x, y; };

CPS void pause(void) { }

int main(void)
{
    int *p = (int[]){4, 6};
    struct P *q = &(struct P){10, 20};
    pause();
    printf("%d %d %d %d\n", p[0], p[1], q->x, q->y);
    return p[0] + q->y - 24;
}
