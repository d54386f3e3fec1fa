/* 6.10.3 macro replacement: stringising, token pasting, variadic macros, recursion
   prevention, macros producing whole cps functions and cps calls. */
#include "corpus.h"

#define STR(x) #x
#define XSTR(x) STR(x)
#define CAT(a, b) a##b
#define DEFINE_GETTER(name, value) CPS int CAT(get_, name)(void) { return value; }
#define LOG(fmt, ...) printf("[" fmt "]\n", __VA_ARGS__)
#define FIRST(a, ...) a

DEFINE_GETTER(one, 1)
DEFINE_GETTER(two, get_one() + 1)
DEFINE_GETTER(three, get_two() + get_one())

int main(void)
{
    int self = 5;
#define self (self + 1)
    LOG("%d %d %d", get_one(), get_two(), get_three());
    LOG("%s %s", STR(get_one()), XSTR(__LINE__));
    LOG("%d", self);
    LOG("%d", FIRST(get_three(), get_two(), get_one()));
    return 0;
}
