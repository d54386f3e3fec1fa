/* Array-typed parameters are pointers (C11 6.7.6.3p7): int x[4], int v[], char *argv[],
   a typedef'd array, static sizes, qualifiers inside the brackets. */
#include "corpus.h"

typedef int vec3[3];

CPS void pause(void) { }

CPS int sum4(int x[4]) { pause(); x[0] += 1; return x[0] + x[1] + x[2] + x[3]; }
CPS int sumn(int n, int v[]) { int s = 0; for (int i = 0; i < n; i++) { pause(); s += v[i]; } return s; }
CPS int count(char *argv[]) { int n = 0; while (argv[n]) { pause(); n++; } return n; }
CPS int dot(vec3 a, vec3 b) { pause(); return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
CPS int first(int a[static 2]) { pause(); return a[1]; }
CPS int konst(const int a[const 2]) { pause(); return a[0] - a[1]; }
CPS int grid(int g[][3], int r) { pause(); return g[r][2]; }

int main(void)
{
    int a[4] = {1, 2, 3, 4};
    char *words[] = {"a", "b", "c", NULL};
    vec3 u = {1, 2, 3}, w = {4, 5, 6};
    int g[2][3] = {{1, 2, 3}, {4, 5, 6}};
    printf("%d %d %d\n", sum4(a), a[0], sumn(4, a));
    printf("%d %d\n", count(words), dot(u, w));
    printf("%d %d %d\n", first(a), konst(a), grid(g, 1));
    return 0;
}
