/* 6.7.5 alignment specifier: _Alignas on locals live across cps calls, on struct
   members, _Alignas(type). */
#include "corpus.h"
#include <stdint.h>

struct al { char c; _Alignas(16) int x; };

CPS void pause(void) { }

CPS int f(void)
{
    _Alignas(64) char buf[10] = "aligned";
    _Alignas(double) int i = 3;
    struct al s = {'a', 7};
    pause();
    int ok = ((uintptr_t)buf % 64 == 0) + ((uintptr_t)&i % _Alignof(double) == 0) +
             ((uintptr_t)&s.x % 16 == 0);
    printf("%s %d %d %d\n", buf, i, s.x, ok);
    return ok;
}

int main(void)
{
    return f() == 3 ? 0 : 1;
}
