/* 6.7.6 declarators: pointers to arrays, arrays of pointers to functions, functions
   returning pointers to functions, abstract declarators in casts and sizeof. */
#include "corpus.h"

static CPS int add1(int x) { return x + 1; }
static CPS int neg(int x) { return -x; }
static CPS int (*table[2])(int) = {add1, neg};

CPS int (*pick(int i))(int) { return table[i]; }
CPS int (*row(int (*m)[3], int r))[3] { return m + r; }

int main(void)
{
    int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
    int (*r)[3] = row(m, 1);
    CPS int (*(*pp)[2])(int) = &table;
    printf("%d %d %d %d\n", pick(0)(10), pick(1)(10), (*r)[2], (*pp)[0](1));
    printf("%d %d\n", (int)sizeof(int (*)[3]), (int)sizeof(char *[4]));
    return 0;
}
