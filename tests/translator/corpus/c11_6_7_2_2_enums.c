/* 6.7.2.2 enumeration specifiers: explicit and implicit values, negative values, enums
   as parameters and return types of cps functions. */
#include "corpus.h"

enum dir { NORTH, EAST = 90, SOUTH = EAST * 2, WEST = -90 };
typedef enum { OFF, ON } sw;

CPS enum dir turn(enum dir d) { return d == WEST ? NORTH : d == NORTH ? EAST : d == EAST ? SOUTH : WEST; }
CPS sw flip(sw s) { return s == ON ? OFF : ON; }

int main(void)
{
    enum dir d = NORTH;
    for (int i = 0; i < 5; i++) {
        d = turn(d);
        printf("%d ", d);
    }
    printf("| %d %d\n", flip(ON), flip(flip(ON)));
    return 0;
}
