/* 6.8.2 compound statements: shadowing in nested blocks, each shadow live across a cps
   call; declarations after statements. */
#include "corpus.h"

CPS int id(int x) { return x; }

CPS int f(void)
{
    int x = 1;
    int s = id(x);
    {
        int x = 10;
        s += id(x);
        {
            int x = 100;
            id(0);
            s += x;
        }
        s += x;
    }
    int y = id(s);
    return x + y;
}

int main(void)
{
    printf("%d\n", f());
    return 0;
}
