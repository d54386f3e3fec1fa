/* 6.7.9 initialization: designated and nested initialisers, brace elision, string
   literals for char arrays, zero-fill, overriding designators, in cps functions. */
#include "corpus.h"

struct pt { int x, y; };
struct shape { const char *name; struct pt pts[3]; int n; };

CPS int id(int v) { return v; }

CPS void show(struct shape s)
{
    printf("%s %d:", s.name, s.n);
    for (int i = 0; i < 3; i++) printf(" (%d,%d)", s.pts[i].x, s.pts[i].y);
    printf("\n");
}

int main(void)
{
    struct shape a = {"tri", {{0, 0}, {1, 0}, {0, 1}}, 3};
    struct shape b = {.name = "elided", 1, 2, 3, 4, .n = 2};
    struct shape c = {.pts[2].y = id(9), .pts[0] = {id(5)}, .name = "desig"};
    struct shape d = {.n = 1, .n = id(7), .name = "override"};
    int arr[10] = {[9] = 1, [2] = 2, 3, [0 ... 1] = 4};
    char s1[] = "abc", s2[6] = "ab", s3[3] = "xyz";
    show(a); show(b); show(c); show(d);
    for (int i = 0; i < 10; i++) printf("%d", arr[i]);
    printf(" %s %s %d %d %.3s\n", s1, s2, (int)sizeof s1, s2[5], s3);
    return 0;
}
