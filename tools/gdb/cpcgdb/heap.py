"""The release runtime keeps no list of condvars: their waiters are found by
scanning the heap for a condvar's magic at its offset in a block whose
wait list checks out."""

import struct

import gdb

from .runtime import _u64


# struct cpc_condvar (cpc_condvar.c, which asserts these offsets): q.head 0,
# q.tail 8, refcount 16, magic 24 (in a union with a uint64_t); malloc'ed,
# so 16-byte aligned.
# Magics (cpc_internal.h): a scheduler's cv_key, or CV_MAGIC_SHARED.
CV_TAIL, CV_REFCOUNT, CV_MAGIC = 8, 16, 24
CV_MAGIC_SHARED = 0x43565348
HEAP_CHUNK = 4 << 20


def _heap_regions():
    """[(start, end)] of the inferior's writable private memory that malloc
    may use: the heap and the anonymous mappings (malloc's arenas, and the
    stacks of threads made by pthread_create, which are anonymous too), not
    the main thread's [stack] nor files."""
    pid = gdb.selected_inferior().pid
    out = []
    try:
        with open('/proc/%d/maps' % pid) as f:
            for ln in f:
                parts = ln.split()
                if len(parts) < 5 or not parts[1].startswith('rw') or parts[1][3] != 'p':
                    continue
                path = parts[5] if len(parts) > 5 else ''
                if path not in ('', '[heap]'):
                    continue
                a, b = (int(x, 16) for x in parts[0].split('-'))
                out.append((a, b))
    except OSError:
        pass
    return out


def _heap_condvars(scheds):
    """[(address, magic, [waiters])] of the condvars with waiters found in
    the heap: a word holding a live condvar magic at offset CV_MAGIC (24) of a 16-byte
    aligned block, whose wait list (chained through cpc_next from q.head)
    ends where q.tail points.  Only a condvar passes that check."""
    keys = {int(s.value['cv_key']) for s in scheds} | {CV_MAGIC_SHARED}
    pats = [(struct.pack('<I', m), m) for m in keys]
    inf = gdb.selected_inferior()
    found = []
    for a, b in _heap_regions():
        at = a
        while at < b:
            n = min(HEAP_CHUNK, b - at)
            try:
                buf = bytes(inf.read_memory(at, n))
            except (gdb.MemoryError, gdb.error):
                at += n
                continue
            for pat, magic in pats:
                i = buf.find(pat)
                while i >= 0:
                    c = at + i - CV_MAGIC
                    if c % 16 == 0 and i >= CV_MAGIC:
                        ws = _condvar_waiters(buf, i - CV_MAGIC)
                        if ws:
                            found.append((c, magic, ws))
                    i = buf.find(pat, i + 1)
            at += n
    return found


def _condvar_waiters(buf, off):
    """The waiters of the condvar candidate at offset off of buf, or None."""
    head, tail = struct.unpack_from('<QQ', buf, off)
    refcount = struct.unpack_from('<i', buf, off + CV_REFCOUNT)[0]
    if head == 0 or tail == 0 or refcount < 0 or head % 8 or tail % 8:
        return None
    out, k = [], head
    try:
        while k and len(out) < (1 << 20):
            out.append(k)
            if k == tail:
                return out if _u64(k) == 0 else None
            k = _u64(k)
    except (gdb.MemoryError, gdb.error):
        return None
    return None
