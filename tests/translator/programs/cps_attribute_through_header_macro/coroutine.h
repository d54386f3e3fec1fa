/* QEMU's spelling: the annotation is a macro, defined in a header, that
   expands to the attribute spelling of `cps`. */
#include <cpc/cpc_runtime.h>
#define coroutine_fn __attribute__((cps))
typedef void coroutine_fn CoroutineEntry(void *opaque);
int coroutine_fn co_step(int x);
/* a native function declared beside them keeps its meaning */
int native_twice(int x);
