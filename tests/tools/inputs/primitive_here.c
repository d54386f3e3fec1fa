/* A primitive defined in the analysed files (QEMU's qemu_coroutine_yield in
   qemu-coroutine.c) is a root like one declared elsewhere: it calls nothing
   cooperative, its annotation comes from its header, and annotated code calls
   it.  `tail`, annotated only where it is defined, stays spurious. */
#include "fix/api.h"
void coroutine_fn co_yield(void) { }
int coroutine_fn step(void) { co_yield(); return 1; }
static int coroutine_fn tail(void) { return 2; }
int native_step(void) { return step() + tail(); }
