/* A .c file is plain C for cpcc: the runtime header in its C mode, where
   `cps` expands to nothing; the spelling is still read. */
#include <cpc/cpc_runtime.h>
cps void later(int n);
void caller(void) { later(1); }
