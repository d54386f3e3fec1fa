/* A member or an element assigned the result of a cps call (`s.m = f()`)
 * writes the variable it belongs to: the variable is set when the next cps
 * call suspends, so its value must survive that call. */
#include "corpus.h"

struct in { short x; char tag; };
struct rec { unsigned char a; struct in in; int v[3]; };
typedef struct { unsigned char a __attribute__((packed)); unsigned short b __attribute__((packed)); } three;

CPS unsigned char byte(void) { return 0xab; }
CPS int num(int x) { return x * 3; }

CPS int members(void)
{
    struct rec r;
    r.a = byte();
    r.in.x = (short) num(5);
    r.in.tag = 'q';
    r.v[2] = num(7);
    r.v[0] = num(1);
    num(0);
    return r.a + r.in.x + r.in.tag + r.v[2] + r.v[0];
}

CPS int elements(void)
{
    int a[4];
    a[0] = num(2);
    a[3] = num(4);
    num(0);
    return a[0] * 100 + a[3];
}

CPS int packed(void)
{
    three t;
    t.a = byte();
    t.b = (unsigned short) num(0x1000);
    return t.a == 0xab && t.b == 0x3000;
}

CPS _Complex double parts(void)
{
    _Complex double z;
    __real__ z = num(2);
    __imag__ z = num(3);
    return z;
}

int main(void)
{
    int m = members(), e = elements(), p = packed();
    _Complex double z = parts();
    printf("%d %d %d %g %g\n", m, e, p, __real__ z, __imag__ z);
    CHECK(m == 0xab + 15 + 'q' + 21 + 3 && e == 612 && p == 1);
    CHECK(__real__ z == 6 && __imag__ z == 9);
    return 0;
}
