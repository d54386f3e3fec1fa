/* 6.10.6 and 6.10.9: #pragma and _Pragma in and around cps functions (GCC diagnostic
   pragmas, pack, once-style unknown pragmas are ignored). */
#include "corpus.h"

#pragma pack(push, 1)
struct packed { char c; int i; };
#pragma pack(pop)

CPS int id(int x) { return x; }

CPS int f(void)
{
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-variable"
    int unused;
#pragma GCC diagnostic pop
    _Pragma("GCC diagnostic push")
    int r = id((int)sizeof(struct packed));
    _Pragma("GCC diagnostic pop")
    return r;
}

int main(void)
{
    printf("%d\n", f());
    return 0;
}
