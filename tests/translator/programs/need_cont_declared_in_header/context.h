/* Declared as QEMU declares qemu_in_coroutine: the prototype the C
   compiler sees has no continuation parameter. */
#include <cpc/cpc_runtime.h>
int in_thread(void) __attribute__((cpc_need_cont));
int depth_of(int base) __attribute__((cpc_need_cont));
