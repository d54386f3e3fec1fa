/* X-macros generating cps functions, a dispatch table of them and an enum. */
#include "corpus.h"

#define OPS(X) X(add, a + b) X(sub, a - b) X(mul, a * b) X(max, a > b ? a : b)

#define DEF(name, expr) CPS int op_##name(int a, int b) { return expr; }
OPS(DEF)
#undef DEF

#define ENUM(name, expr) OP_##name,
enum op { OPS(ENUM) OP_COUNT };
#undef ENUM

#define ENTRY(name, expr) [OP_##name] = op_##name,
static CPS int (*table[OP_COUNT])(int, int) = { OPS(ENTRY) };
#define NAME(name, expr) #name,
static const char *names[] = { OPS(NAME) };

int main(void)
{
    for (int i = 0; i < OP_COUNT; i++)
        printf("%s=%d ", names[i], table[i](7, 3));
    printf("\n");
    return 0;
}
