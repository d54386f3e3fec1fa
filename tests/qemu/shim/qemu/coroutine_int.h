/* tests/qemu/shim/qemu/coroutine_int.h -- QEMU's coroutine internals: here
 * struct Coroutine is complete in <cpc/qemu-coroutine.h> already. */
#include <cpc/qemu-coroutine.h>
