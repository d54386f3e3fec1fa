/* The definition is annotated and the header's prototype is not: the
   declarations disagree (the translator rejects this for cps). */
#include "fix/api.h"
int coroutine_fn read_sync(int sector) { co_yield(); return sector; }
