/* 6.7.2.3 tags and enumerators declared inside the arguments of a cps call (a cast, sizeof,
   _Alignof, a compound literal) are in scope after the call, to the end of the block, though
   the call moves into a statement or a block of its own: an unnamed and a named enumeration,
   a struct named later by sizeof and by a variable live across a call, a union, and the
   headers of `if` and `while` statements, whose scope ends with them. */
#include "corpus.h"

CPS int id(int x) { return x; }
int native(int x) { return x + 1; }

CPS int tags(int n)
{
    int r = 0;
    id((enum { A = 6 })n);
    r += A;
    int y = native(id((enum e { B = 7 })B));
    r += B * 10 + y * 100 + (int)sizeof(enum e) * 1000;
    y = id(sizeof(struct T { int a, b; })) + native(id(1));
    struct T t = { n, y };
    id(0);
    r += (int)sizeof(struct T) * 10000 + t.a + t.b;
    r += id(_Alignof(union V { double d; char c; })) + (int)sizeof(union V);
    r += id(((struct P { int p; }){ n * 3 }).p);
    struct P p = { id(5) };
    r += p.p * 100000;
    if (id((enum { C = 8 })n) > 2)
        r += C * 1000000;
    int i = 0;
    while (id((enum { W = 3 })i) < W)
        i++;
    r += i * 10000000;
    return r;
}

int main(void)
{
    printf("%d %d\n", tags(1), tags(4));
    return 0;
}
