/* __func__ (C11 6.4.2.2) in a cps function is the user's name of the function. */
#include "corpus.h"

CPS void pause(void) { }

CPS const char *name_of_me(void)
{
    const char *before = __func__;
    pause();
    printf("%s %s %s\n", before, __func__, __FUNCTION__);
    return __func__;
}

CPS void other(void) { printf("%s\n", __func__); pause(); printf("%s\n", __PRETTY_FUNCTION__); }

int main(void)
{
    printf("%s\n", name_of_me());
    other();
    return 0;
}
