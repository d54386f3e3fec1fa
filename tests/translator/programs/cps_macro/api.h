/* A library header that spells the annotation through a macro, as QEMU's
   coroutine_fn: declarations only. */
#ifndef CPS_MACRO_API_H
#define CPS_MACRO_API_H
#include <cpc/cpc_runtime.h>
#define coroutine_fn cps
#define my_coroutine coroutine_fn
void coroutine_fn step(int *n);
int my_coroutine twice(int x);
#endif
