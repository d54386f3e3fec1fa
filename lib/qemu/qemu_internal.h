/* lib/qemu/qemu_internal.h -- shared by the QEMU coroutine backend's
 * modules (coroutine.c, written in C on the continuation ABI, and the
 * CPC code: lock.cpc, sleep.cpc); not installed. */
#ifndef CPC_QEMU_INTERNAL_H
#define CPC_QEMU_INTERNAL_H

#include <cpc/qemu-coroutine.h>

/* QEMU's aio_co_wake for this backend: from a coroutine, co is queued to
   run when the current coroutine yields or ends; from native code, it is
   entered at once. */
#ifdef __CPC_FRONTEND__
void cpc__qemu_wake(Coroutine *co) __attribute__((cpc_need_cont));
#else
void cpc__qemu_wake(cpc_continuation *k, Coroutine *co);
#endif

/* Abort with "qemu-coroutine: <message>". */
void cpc__qemu_fatal(const char *fmt, ...)
    __attribute__((noreturn, format(printf, 1, 2)));

#endif
