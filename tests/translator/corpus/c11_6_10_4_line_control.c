/* 6.10.4 line control: #line changes __LINE__ and __FILE__ in cps functions, also
   inside a function body between cps calls. */
#include "corpus.h"

CPS int id(int x) { return x; }

CPS void where(void)
{
    printf("%d\n", __LINE__);
#line 1000
    id(0);
    printf("%d\n", __LINE__);
#line 2000 "renamed.c"
    id(1);
    printf("%d %s\n", __LINE__, __FILE__);
}

int main(void)
{
    where();
    printf("%d %s\n", __LINE__, __FILE__);
    return 0;
}
