/* tests/qemu/shim/qemu/osdep.h -- what QEMU's unit tests expect from
 * "qemu/osdep.h", for building them against <cpc/qemu-coroutine.h>: the
 * C library, GLib (its test framework), and the coroutine API.  Written
 * for CPC; QEMU's own header is much larger. */
#ifndef CPC_SHIM_QEMU_OSDEP_H
#define CPC_SHIM_QEMU_OSDEP_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <cpc/qemu-coroutine.h>

/* This backend has a pool of coroutines. */
#define CONFIG_COROUTINE_POOL 1

#endif
