/* tests/qemu-cpc/backend/qemu-common.h -- stand-in for QEMU 1.6's
 * include/qemu-common.h, giving only what lib/qemu/backend/coroutine-cpc.c
 * and the generic layer of this test (qemu-coroutine.cpc) use: the CPC
 * runtime's header, `coroutine_fn` as the cps attribute (as build.sh makes
 * QEMU's header say), and DO_UPCAST. */
#ifndef QEMU_COMMON_H
#define QEMU_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <cpc/cpc_runtime.h>

#define coroutine_fn __attribute__((cps))

/* The structure of type `type` whose member `field` is at `dev`. */
#define DO_UPCAST(type, field, dev) \
    ((type *)(void *)((char *)(dev) - offsetof(type, field)))

#endif
