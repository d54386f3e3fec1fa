/* Needs -I and -D after `--`. */
#include "coro.h"
void coroutine_fn ok(void) { co_wait(); }
void bad(void) { co_wait(); }
