/* 6.10.4 line markers as preprocessors write them, with flags (1: a file is entered, 2: the
   file returned to, 3: a system header), which gcc reads anywhere and Clang refuses when they
   do not match its include stack (gcc ignores a return to a file it did not enter from): the
   front-end reads them as gcc does, and the C compiler still sees them; __LINE__ and __FILE__
   follow the markers, in cps functions too, and in one rendered with its macros expanded
   (a cps call out of a macro), where the front-end expands them. */
#include "corpus.h"

CPS int id(int x) { return x; }

CPS int where(void)
{
    int a = id(__LINE__);
# 200 "xyz.c" 2 3
    int b = id(__LINE__);
# 300 "other.c" 1
    int c = id(__LINE__) + (int)sizeof(__FILE__);
    return a * 0 + b * 1000 + c;
}

#define STEP(x) id(x)

CPS int rendered(void)
{
# 400 "entered.h" 1 3
    int a = STEP(__LINE__);
# 500 "nowhere.c" 2
    int b = STEP(__LINE__);
# 41 "other.c" 2
    int c = STEP(__LINE__);
    return a * 1000000 + b * 1000 + c;
}

int main(void)
{
    printf("%d %d\n", where(), rendered());
    return 0;
}
