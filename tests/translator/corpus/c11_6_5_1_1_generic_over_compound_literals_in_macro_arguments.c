/* 6.5.1.1 generic selection over compound literals (of scalar, struct, union, enum, array
   and unnamed record types) written in macro arguments (CHECK stringifies: the function is
   rendered with its macros expanded), in cps functions after a suspension, with cps calls in
   the controlling expression (never made) and in the selected association; and as the
   initialisers of locals written in the argument of a variadic macro (commas in the
   literal), whose text the translation copies (boxing, the splitting of declarations):
   Clang's extent of such an initialiser ends where the invocation starts, so the function is
   rendered expanded. */
#include "corpus.h"
#define TYPENAME(x) _Generic((x), int: "int", long: "long", double: "double", default: "other")
#define VAL(x) (x)
struct P { int a, b; };
CPS int id(int x) { return x; }
CPS int f(int n)
{
    int x = id(n);
    CHECK(_Generic((int){x}, int: 1, default: 0));
    CHECK(_Generic((struct P){x, 2}, struct P: 1, default: 0));
    CHECK(_Generic(((struct P){x, 2}).a, int: 1, default: 0));
    CHECK(_Generic((long){x}, long: id(1), default: 0));
    printf("%s %s\n", TYPENAME((double){x}), TYPENAME((long){id(x)}));
    int *p = &(int){x};
    CHECK(_Generic(p, int *: *p == x, default: 0));
    CHECK(_Generic(&(int){x}, int *: 1, default: 0));
    CHECK(_Generic((char[]){"ab"}, char *: 1, default: 0));
    CHECK(_Generic((const int){x}, int: 1, default: 0));
    return VAL(_Generic((int[2]){x, id(3)}, int *: id(4), default: 0));
}
CPS int g(int n)
{
    int x = id(n);
    CHECK(_Generic((struct { int a; }){x}, default: 1));
    CHECK(_Generic(((struct { int a; }){x}).a, int: 1, default: 0));
    CHECK(_Generic((union { int a; float f; }){x}.a, int: 1, default: 0));
    CHECK(_Generic((enum { E1, E2 }){x}, unsigned: 1, int: 1, default: 0));
    printf("%s\n", TYPENAME(((struct { long l; }){x}).l));
    printf("%s\n", TYPENAME(((struct { long l; }){id(x)}).l));
    return x;
}
#define ID(...) __VA_ARGS__
#define KIND(...) _Generic((__VA_ARGS__), int: 1, struct P: 2, default: 3)

CPS int h(int n)
{
    int x = id(n);
    int k = ID(_Generic((struct P){x, 3}, struct P: 4, default: 5));
    struct P q = ID((struct P){ KIND((int){x}), 6 });
    int a = ID(_Generic((struct P){x, 3}, struct P: x, default: 5)), b = id(KIND((struct P){1, 2}));
    int *p = &k;
    id(0);
    return k * 10000 + q.a * 1000 + q.b * 100 + (a + *p) * 10 + b;
}

int main(void)
{
    int a = f(1);
    int b = g(2);
    int c = h(3);
    printf("%d %d %d\n", a, b, c);
    return 0;
}
