/* 6.9.2 external object definitions: tentative definitions, static and extern objects,
   arrays completed later, used by cps functions. */
#include "corpus.h"

int tentative;
int tentative;
static int hidden[];
extern int later_defined;
int completed[];

CPS int use(void) { tentative += 2; return tentative + hidden[1] + later_defined + completed[2]; }

static int hidden[3] = {0, 5, 0};
int later_defined = 100;
int completed[4] = {1, 2, 3, 4};

int main(void)
{
    use();
    printf("%d\n", use());
    return 0;
}
