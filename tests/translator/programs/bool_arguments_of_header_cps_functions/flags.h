/* cps functions with `bool` parameters, declared in a header (QEMU's
   `int coroutine_fn bdrv_co_flush(BlockDriverState *bs, bool ...)` style)
   and defined in another file. */
#include <stdbool.h>
#include <cpc/cpc_runtime.h>
#define coroutine_fn __attribute__((cps))
int coroutine_fn co_count(bool on, int x);
bool coroutine_fn co_not(bool b);
typedef int coroutine_fn co_flagged(int x, bool twice);
int coroutine_fn co_apply(co_flagged *fn, bool twice, int x);
