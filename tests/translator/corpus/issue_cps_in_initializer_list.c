/* cps calls inside initializer lists: arrays, structs, designated, nested. */
#include "corpus.h"

struct pt { int x, y; };
struct seg { struct pt a, b; int len; };

CPS int v(int x) { return x * 10; }

int main(void)
{
    int a[3] = {v(1), v(2), v(3)};
    struct pt p = {v(4), .y = v(5)};
    struct seg s = {.b = {v(6), 7}, .a.x = v(8), .len = v(9)};
    int m[2][2] = {[1] = {v(1), v(2)}, [0][1] = v(3)};
    printf("%d %d %d | %d %d | %d %d %d %d %d | %d %d %d %d\n", a[0], a[1], a[2], p.x, p.y,
           s.a.x, s.a.y, s.b.x, s.b.y, s.len, m[0][0], m[0][1], m[1][0], m[1][1]);
    return 0;
}
