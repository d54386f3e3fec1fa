/* Attributes in every position: on functions (before and after the declarator), on
   parameters, locals, types, struct members, labels, statements (fallthrough). */
#include "corpus.h"

struct __attribute__((packed)) pk { char c; int i; };
typedef int aligned_int __attribute__((aligned(16)));

__attribute__((noinline)) CPS int f(int a __attribute__((unused)), int b)
{
    __attribute__((unused)) int spare = 0;
    aligned_int x = b;
    int y __attribute__((aligned(8))) = 2;
    switch (b) {
    case 1:
        x++;
        __attribute__((fallthrough));
    case 2:
        x++;
        break;
    }
lbl: __attribute__((unused));
    return x + y;
}

CPS int g(int) __attribute__((warn_unused_result));
CPS int g(int v) { return v + (int)sizeof(struct pk); }

static __attribute__((constructor)) void early(void) { printf("constructor\n"); }

int main(void)
{
    printf("%d %d %d\n", f(0, 1), f(0, 2), g(1));
    return 0;
}
