/* GNU statement expressions containing cps calls, declarations and loops, used as
   operands, initialisers and arguments. */
#include "corpus.h"

CPS int id(int x) { return x; }

#define MAX(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a > _b ? _a : _b; })

int main(void)
{
    int x = ({ int t = id(3); t * 2; });
    int y = MAX(id(4), id(9)) + ({ int s = 0; for (int i = 0; i < 4; i++) s += id(i); s; });
    printf("%d %d %d\n", x, y, id(({ id(1); 5; })));
    return 0;
}
