/* 6.10.6 pragmas: a struct defined in a cps function moves to file scope (its variables may
   live in the frame); the `#pragma pack` in effect where it is defined goes with it, or its
   layout silently changes.  Pragmas in a group the compiler skips do not count; a pack set
   before the function holds at file scope too.  The functions that use CHECK on their locals
   are rendered with their macros expanded (macros.py), which must keep their pragmas;
   `written_as_is` is copied as written. */
#include "corpus.h"

CPS long seen(long v) { return v; }

CPS int in_push_pop(void)
{
#pragma pack(push, 1)
    struct one { char a; int b; } s = { 1, 2 };
#pragma pack(pop)
    struct natural { char a; int b; } n = { 3, 4 };
    seen(0);
    CHECK(sizeof s == 5 && sizeof n == 8);
    return s.a + s.b + n.a + n.b + (int)sizeof s + (int)sizeof n;
}

CPS int set_and_reset(void)
{
#pragma pack(push)
#pragma pack(2)
    union two { char c[3]; int i; } u = { { 1, 2, 3 } };
    struct nested { char a; struct inner { char x; long y; } in; } t = { 1, { 2, 3 } };
#pragma pack()
    struct back { char a; int b; } b = { 4, 5 };
#pragma pack(pop)
    seen(1);
    CHECK(sizeof u == 4 && sizeof t == 12 && sizeof(struct inner) == 10 && sizeof b == 8);
    return u.c[2] + t.in.x + (int)t.in.y + b.a + b.b;
}

CPS int skipped_groups(void)
{
#if 0
#pragma pack(1)
#endif
#ifdef __GNUC__
#pragma pack(push, 4)
#else
#pragma pack(push, 1)
#endif
    struct four { char a; double d; } f = { 1, 2.0 };
#pragma pack(pop)
    seen(2);
    CHECK(sizeof f == 12);
    return f.a + (int)f.d + (int)sizeof f;
}

CPS int written_as_is(void)
{
#pragma pack(push, 1)
    struct one { char a; long b; } s = { 1, 2 };
#pragma pack(pop)
    seen(4);
    return (int)sizeof s * 10 + s.a + (int)s.b;
}

CPS int operator_form(void)
{
    _Pragma("pack(push, 2)") struct two { char a; long b; } t = { 5, 6 }; _Pragma("pack(pop)")
    seen(5);
    CHECK(sizeof t == 10);
    return t.a + (int)t.b;
}

#pragma pack(push, 1)
CPS int packed_from_file_scope(void)
{
    struct outer { char a; short s; } o = { 1, 2 };
#pragma pack(push, 2)
    struct two { char a; int i; } w = { 3, 4 };
#pragma pack(pop)
    seen(3);
    CHECK(sizeof o == 3 && sizeof w == 6);
    return o.a + o.s + w.a + w.i;
}
#pragma pack(pop)

int main(void)
{
    printf("%d %d %d %d %d %d\n", in_push_pop(), set_and_reset(), skipped_groups(),
           written_as_is(), operator_form(), packed_from_file_scope());
    return 0;
}
