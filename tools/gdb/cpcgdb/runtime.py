"""The runtime's memory as the extension reads it: words of the inferior,
the runtime's statics and globals, and the layouts of its structures that
have no debug information in a release build (struct cpc_wait, the
thread states)."""

import struct

import gdb


CPC_IO_IN, CPC_IO_OUT = 1, 2
W_COND, W_TIMER, W_IO = 1, 2, 4
# struct cpc_wait (runtime/cpc_internal.h), packed:
#   link 0, cv 8, heap_index 16, fd 20, io_next 24, io_prev 32, io_dir 40
WAIT_LINK, WAIT_CV, WAIT_FD, WAIT_IO_NEXT, WAIT_IO_DIR = 0, 8, 20, 24, 40
ST_NEW, ST_RUNNING, ST_SUSPENDED, ST_PARKED = 1, 2, 3, 5


def _mem(addr, n):
    return bytes(gdb.selected_inferior().read_memory(addr, n))


def _u64(addr):
    return struct.unpack('<Q', _mem(addr, 8))[0]


def _u32(addr):
    return struct.unpack('<I', _mem(addr, 4))[0]


def _i32(addr):
    return struct.unpack('<i', _mem(addr, 4))[0]


def _static(name, file_suffix):
    """The value of the runtime's static `name`, defined in file_suffix."""
    for s in gdb.lookup_static_symbols(name):
        if s.symtab is not None and s.symtab.filename.endswith(file_suffix):
            return s.value()
    return None


def _global(name):
    s = gdb.lookup_global_symbol(name)
    return s.value() if s is not None else None
