/* Built with -Iinclude_b (compile_commands.json): a.c's flags must not leak
   here. */
#include "api.h"
#ifdef A_ONLY
#error "b.c is analysed with a.c's flags"
#endif

/* calls step, which must be coroutine_fn: warning (transitive) */
int batch(int n)
{
    return step(n) + step(n + 1);
}

/* calls batch, which must be too: warning */
int main(void)
{
    return batch(1);
}
