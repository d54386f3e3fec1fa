/* 6.7.2.1 structure and union specifiers: anonymous members, nested tags, flexible
   array member, bit-fields of every width incl. zero-width, padding. */
#include "corpus.h"

struct outer {
    int tag;
    union { int i; float f; };
    struct { short lo, hi; };
    struct inner { char c; } in;
    unsigned a : 1, b : 7, : 0, c : 16;
};

struct msg { int len; char text[]; };

CPS int id(int x) { return x; }

CPS struct msg *make(const char *s)
{
    int n = (int)strlen(s);
    struct msg *m = malloc(sizeof *m + n + 1);
    m->len = id(n);
    memcpy(m->text, s, n + 1);
    return m;
}

int main(void)
{
    struct outer o = {.tag = 1, .i = 5, .lo = 2, .hi = 3, .in = {'x'}, .a = 1, .b = 100, .c = 65535};
    o.i += id(1);
    o.b = id(o.b + 27);
    struct msg *m = make("flexible");
    printf("%d %d %d %d %c %u %u %u\n", o.tag, o.i, o.lo, o.hi, o.in.c, o.a, o.b, o.c);
    printf("%d %s %d\n", m->len, m->text, (int)sizeof(struct msg));
    free(m);
    return 0;
}
