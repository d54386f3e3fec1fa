/* 6.8.4.2 switch: fall-through, default in the middle, cps calls in the controlling
   expression and in cases, nested switches, case ranges (GNU), Duff's device. */
#include "corpus.h"

CPS int id(int x) { return x; }

CPS int classify(int v)
{
    int r = 0;
    switch (id(v)) {
    case 0:
        r += id(1);
    case 1:
        r += 10;
        break;
    default:
        r = -1;
    case 2 ... 4:
        r += id(100);
        switch (v) {
        case 3: r += 1000; break;
        }
        break;
    case 'a':
        return id(7);
    }
    return r;
}

CPS int duff(int count)
{
    int n = (count + 3) / 4, moved = 0;
    switch (count % 4) {
    case 0: do { moved += id(1);
    case 3:      moved += id(1);
    case 2:      moved += id(1);
    case 1:      moved += id(1);
            } while (--n > 0);
    }
    return moved;
}

int main(void)
{
    for (int v = -1; v < 6; v++) printf("%d ", classify(v));
    printf("%d %d %d\n", classify('a'), duff(7), duff(8));
    return 0;
}
