/* assert(qemu_in_coroutine()) checks a precondition: it picks no code
   path, so the function is not hybrid (QEMU's lock code); `pick` is. */
#include <assert.h>
#include <stdbool.h>
#define coroutine_fn
bool qemu_in_coroutine(void);
void coroutine_fn qemu_coroutine_yield(void);
void coroutine_fn lock(void) { assert(qemu_in_coroutine()); qemu_coroutine_yield(); }
void coroutine_fn lock2(void) { assert(qemu_in_coroutine() && 1); qemu_coroutine_yield(); }
void pick(void) { if (qemu_in_coroutine()) { qemu_coroutine_yield(); } }
int pick2(void) { return qemu_in_coroutine() ? 1 : 0; }
