/* 6.5.1.1 generic selection whose associations name struct and union types defined in a cps
   function's blocks (which move to file scope under names of their own): the association
   names the type of the innermost definition in scope, also when an inner block defines
   another type with the same tag, and also in a function rendered with its macros expanded. */
#include "corpus.h"

#define STEP(x) step(x)

CPS int step(int x) { return x + 1; }

struct S { char c; };

CPS int kinds(int n)
{
    struct S { int a; } s = { n };
    union U { int i; float f; } u = { 2 };
    int r = step(s.a);
    r += _Generic(s, struct S: 10, default: 20);
    r += _Generic(u, union U: 100, struct S: 200, default: 300);
    {
        struct S { long l; } t = { 5 };
        r += _Generic(t, struct S: 1000, default: 2000);
        r += step(0);
    }
    r += _Generic(&s, struct S *: 10000, default: 20000) + s.a;
    return r;
}

CPS int rendered(int n)
{
    struct S { short h; } s = { 3 };
    int r = STEP(n);
    return r + _Generic(s, struct S: 7, default: 9) + s.h;
}

int main(void)
{
    struct S g = { 'x' };
    printf("%d %d %d\n", kinds(4), rendered(1), _Generic(g, struct S: 1, default: 2));
    return 0;
}
