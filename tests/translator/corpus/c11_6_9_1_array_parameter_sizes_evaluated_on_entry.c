/* 6.9.1p10: on entry to a function, the size expression of each variably modified
   parameter is evaluated, also for an array parameter, which is adjusted to a pointer
   (`int b[a++]`: `a` is incremented on entry).  A cps function is entered once, whatever
   its resume points (the sizes are not evaluated again when it resumes), with or without
   cps calls. */
#include "corpus.h"

static int evaluated;

static int counted(int n) { evaluated++; return n; }

CPS int g(int x) { return x; }

CPS int entered(int a, int b[a++], int c, int d[counted(c) + 1], int e[static 3])
{
    return a * 100 + c * 10 + b[0] + d[0] + e[2];
}

CPS int resumes(int i, int array[i++])
{
    int s = 0;
    for (int k = 0; k < 3; k++)
        s += g(k);
    return i * 10 + s + array[1];
}

int main(void)
{
    int e[10] = { 1, 2, 3 };
    int a = entered(1, e, 4, e, e);
    int b = resumes(10, e);
    printf("%d %d %d\n", a, b, evaluated);
    return 0;
}
