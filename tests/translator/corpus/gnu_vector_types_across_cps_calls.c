/* GNU C vector types (`vector_size`) in cps functions: variables of a vector type live
   across cps calls (in the frame, or in the environment when their address is kept), as
   parameters and results of cps functions, in arrays, whatever names the type: a file-scope
   typedef, a typedef local to the function (its name cannot leave the function: the type is
   spelled with the attribute), or the attribute written on the declaration, also through a
   macro in a function rendered with its macros expanded (`rendered`: Clang's rendering of
   `vector(4, float) a, b;` repeats a broken attribute on `b`). */
#include "corpus.h"

typedef int v4 __attribute__((vector_size(16)));

CPS int f(int x) { return x; }

CPS v4 scaled(v4 v, int k) { f(0); return v * k; }

CPS int local_typedef(void)
{
    typedef double v2 __attribute__((vector_size(16)));
    typedef short v8 __attribute__((vector_size(16)));
    v2 d = { 1.5, 2.5 };
    v8 s = { 1, 2, 3, 4, 5, 6, 7, 8 };
    int k = f(3);
    d = d * k;
    s = s + (short)f(1);
    return (int)(d[1] * 10) + s[7];
}

CPS int direct_attribute(void)
{
    int __attribute__((vector_size(8))) pair = { 5, 6 };
    v4 arr[2] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } };
    f(0);
    v4 *kept = &arr[1];            /* address kept across the call: the array is boxed */
    f(1);
    return pair[1] * 100 + (*kept)[3] + arr[0][0];
}

#define vector(n, type) __attribute__((vector_size((n) * sizeof(type)))) type
#define SEEN(x) f(x)

CPS int rendered(void)
{
    vector(4, float) a = { 1, 2, 3, 4 }, b;
    vector(2, double) c, d = { 0.5, 1.5 };
    b = a * (float)SEEN(2);
    c = d + (vector(2, double)){ 1, 1 };
    return (int)b[3] * 100 + (int)(c[1] * 10);
}

int main(void)
{
    v4 v = { 1, 2, 3, 4 };
    v4 w = scaled(v, f(3));
    printf("%d %d %d %d %d\n", w[0], w[3], local_typedef(), direct_attribute(), rendered());
    return 0;
}
