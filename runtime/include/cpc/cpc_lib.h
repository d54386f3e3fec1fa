/* cpc/cpc_lib.h -- the CPC library: barriers, timeouts, I/O, channels. */
#ifndef CPC_LIB_H
#define CPC_LIB_H

#include <cpc/cpc_runtime.h>
#include <cpc/cpc_barrier.h>
#include <cpc/cpc_io.h>
#include <cpc/cpc_channel.h>

#endif
