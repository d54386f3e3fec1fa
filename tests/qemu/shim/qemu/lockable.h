/* tests/qemu/shim/qemu/lockable.h -- QemuLockable and QEMU_MAKE_LOCKABLE
 * come with <cpc/qemu-coroutine.h> (for CoMutex, the lock of this
 * backend). */
#include <cpc/qemu-coroutine.h>
