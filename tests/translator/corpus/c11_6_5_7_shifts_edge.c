/* 6.5.7 bitwise shifts: widths, promotions of small types, unsigned wrap. */
#include "corpus.h"

CPS unsigned char uc(unsigned char v) { return v; }
CPS int n(int v) { return v; }
CPS unsigned long long ull(unsigned long long v) { return v; }

int main(void)
{
    printf("%d %d\n", uc(0x80) << n(1), uc(0xff) >> n(4));
    printf("%llu %llu\n", ull(1) << n(63), ull(~0ULL) >> n(60));
    printf("%u\n", 1u << n(31));
    printf("%d\n", (int)sizeof(uc(1) << 1));
    return 0;
}
