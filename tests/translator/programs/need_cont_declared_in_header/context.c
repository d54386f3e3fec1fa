/* The definitions, in C on the runtime's interface: the continuation
   comes first (NULL from native code). */
#include <cpc/cpc_runtime.h>

int in_thread(cpc_continuation *k) { return k != NULL; }
int depth_of(cpc_continuation *k, int base) { return base + (k != NULL ? 1 : 0); }
