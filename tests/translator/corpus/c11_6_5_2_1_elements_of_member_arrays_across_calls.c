/* 6.5.2.1 array subscripting: a struct whose only writes before a cps call are to elements
   of its array members (`(retval.cmr)[i] = 0.0;` in Olden's bh, through a macro) is live
   across the call and must be saved; so must an array of arrays written element by
   element. */
#include "corpus.h"

#define NDIM 3
#define CLRV(v) { int i; for (i = 0; i < NDIM; i++) (v)[i] = 0.0; }
#define ADDV(v, u, w) { int i; for (i = 0; i < NDIM; i++) (v)[i] = (u)[i] + (w)[i]; }

typedef double vector[NDIM];
typedef struct { vector cmr, cmv; int n; } points;

CPS double step(double x) { return x + 1; }

CPS points sum(int n)
{
    points retval;
    vector w;
    int i;
    CLRV(retval.cmr);
    CLRV(retval.cmv);
    for (i = 0; i < n; i++) {
        w[0] = step(i);
        w[1] = w[2] = 1;
        ADDV(retval.cmr, retval.cmr, w);
    }
    retval.n = n;
    return retval;
}

CPS int grid(void)
{
    int g[2][3], i, j, t = 0;
    struct { int m[2][2]; } s;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 3; j++)
            g[i][j] = i * 3 + j;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++)
            s.m[i][j] = 10 * i + j;
    for (i = 0; i < 2; i++)
        t += (int)step(g[i][2]) + s.m[i][1];
    return t;
}

int main(void)
{
    points p = sum(4);
    printf("%g %g %g %g %d %d\n", p.cmr[0], p.cmr[1], p.cmr[2], p.cmv[0], p.n, grid());
    return 0;
}
