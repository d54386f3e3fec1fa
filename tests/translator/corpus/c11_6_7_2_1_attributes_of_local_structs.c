/* 6.7.2.1 structure specifiers: a struct defined in a cps function moves to file scope (its
   variables may live in the frame); its attributes (`packed`, `aligned`), written before its
   tag or after its `}`, move with it, or its layout silently changes. */
#include "corpus.h"

CPS long seen(long v) { return v; }

CPS int laid_out(void)
{
    struct __attribute__((packed)) before { char a; int b; } s = { 1, 2 };
    struct after { char a; int b; } __attribute__((packed)) t = { 3, 4 };
    struct __attribute__((aligned(16))) wide { char c; } u = { 5 };
    seen(0);
    CHECK(sizeof s == 5 && sizeof t == 5 && _Alignof(struct wide) == 16);
    return s.a + s.b + t.a + t.b + u.c + (int)sizeof u;
}

int main(void)
{
    printf("%d\n", laid_out());
    return 0;
}
