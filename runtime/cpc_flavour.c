/*
 * cpc_flavour.c -- the link-time marker of the runtime's flavour.
 *
 * cpc/cpc_runtime.h makes every object that includes it reference the
 * marker of the layout it was compiled for (debug or not); each runtime
 * library defines only its own, so linking debug objects with libcpc (or
 * the reverse) stops with "undefined reference to
 * `cpc_built_with_cpc_debug__link_with_libcpc_debug'" (or the other name)
 * instead of running with two continuation layouts.
 */
#include "cpc/cpc_runtime.h"

#ifdef CPC_DEBUG
const char cpc_built_with_cpc_debug__link_with_libcpc_debug = 1;
#else
const char cpc_built_without_cpc_debug__link_with_libcpc_not_libcpc_debug = 1;
#endif
