/* Macros at cps call sites: a call inside an object-like and a function-like macro, a
   variadic macro producing the arguments. */
#include "corpus.h"

#define FOO(X, Y) X + Y
#define ARGS(...) __VA_ARGS__
#define CALL(f, ...) f(__VA_ARGS__)
#define TWICE(e) ((e) + (e))

CPS int zero(int a, int b) { return a - b; }
CPS int two(int a, int b) { return a * 10 + b; }

CPS int f(void) { return FOO(zero(5, 5), 0); }
CPS int g(void) { return FOO(0, 0); }

int main(void)
{
    int a = two(ARGS(1, 2));
    int b = CALL(two, 3, 4);
    int c = TWICE(two(0, 1));
    printf("%d %d %d %d %d\n", f(), g(), a, b, c);
    return 0;
}
