/* 6.10.3 a cps function rendered with its macros expanded (a cps call comes out of a macro)
   is compiled where the macros of the source are defined, those its body defines included
   (their directives go in front of it): the rendering must not be expanded a second time.
   A function-like macro named like the function its expansion calls (`E(E)(X)` is the
   function E), a self-referential object-like one, one defined at the end of the body and
   named like a parameter, one redefined after its use. */
#include "corpus.h"

#define STEP(x) step(x)

CPS int step(int x) { return x + 1; }
int E(int x) { return x * 17; }
int twice(int x) { return 2 * x; }
int count = 7;

CPS int run(int X)
{
#define E(x) x
    int r = STEP(X);                  /* 4 */
    r += E(E)(X);                     /* the function E: 51 */
#define twice(x) (x)
    r += twice(twice)(1) * 100;       /* the function twice: 200 */
#define count (count + 1000)
    r += count;                       /* 1007 */
#define LATER 5
    r += LATER * 10000;
#undef LATER
#define LATER 9
    r += STEP(X) * 100000;            /* 400000 */
#define X 1000
    return r;
}

CPS int plain(int n)
{
    return step(n) + count;
}

int main(void)
{
    printf("%d %d %d %d %d\n", run(3), LATER, E(4), twice(3), X);
    printf("%d\n", plain(1));
    return 0;
}
