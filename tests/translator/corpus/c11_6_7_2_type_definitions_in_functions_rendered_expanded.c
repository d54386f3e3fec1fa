/* 6.7.2 type specifiers in a cps function that the translator renders with its macros
   expanded (an assertion macro wraps a cps call, as chibicc's tests do): a struct, union or
   enum defined in a type name inside an expression (sizeof, _Alignof, offsetof, a cast, a
   compound literal) keeps its definition, and `_Alignas` keeps its place in front of a
   declaration. */
#include <stddef.h>
#include "corpus.h"

CPS long seen(long v) { return v; }

#define SEEN(e) seen(e)

CPS long rendered(void)
{
    long n = SEEN(sizeof(struct eight { int a, b; }));
    n += SEEN(_Alignof(struct four { int a; }));
    n += SEEN(offsetof(struct __attribute__((packed)) tight { char a; int b[2]; }, b));
    n += SEEN(offsetof(struct { char a; int b; } __attribute__((packed)), b) * 100);
    n += SEEN(((struct point { int x; }){3}).x);
    n += SEEN(((union word { int i; char c; } *)&(int){5})->i);
    n += SEEN((enum seven { SEVEN = 7 })SEVEN + SEVEN);
    struct eight e = { 1, 2 };
    struct point p = { 9 };
    union word w = { 11 };
    n += SEEN(e.a + e.b + p.x + w.i + (long)sizeof(struct tight));
    _Alignas(32) char x, y;
    _Alignas(16) int *q;
    n += SEEN(({ _Alignas(64) char z; (long)((size_t)&z % 64); }));
    CHECK((size_t)&x % 32 == 0 && (size_t)&y % 32 == 0 && (size_t)&q % 16 == 0);
    return n;
}

int main(void)
{
    printf("%ld\n", rendered());
    return 0;
}
