"""Finding every CPC thread: the schedulers on the runtime's list and the
OS threads driving them, each scheduler's run queue, inbox, timer heap and
fd wait lists, the running threads (stacks.py), the condvars' waiters
(the debug runtime's registry, else heap.py), the default pool's queue,
and the debug runtime's registry of threads."""

import struct
import time

import gdb

from .continuation import continuation_frames, LogicalFrame, _wait
from .cpsframe import _older
from .heap import _heap_condvars
from .runtime import (CPC_IO_IN, CPC_IO_OUT, _global, _i32, _mem, ST_NEW, ST_PARKED, ST_RUNNING,
                      _static, _u32, _u64, W_COND, WAIT_CV, WAIT_FD, WAIT_IO_DIR, WAIT_IO_NEXT,
                      WAIT_LINK)
from .stacks import running_logical_frames, running_stack
from .symbols import _loc_of_pc, _type
from .tailcalls import _tail_called


CATEGORIES = ['running', 'runnable', 'sleeping', 'condvar', 'fd', 'condvar',
              'detached', 'new']
# struct cpc__tmr_entry (cpc_timer.c): when, seq, k
TMR_ENTRY_SIZE = 24
# a thread queued in a pool keeps its home scheduler 8 bytes above its top
# frame (after cpc_link's result, cpc_pool.c); a plain wait on a shared
# condvar keeps it at the same place (struct cpc_wait: home)
HOME_OFFSET = 8


class CpcScheduler:
    """One cooperative scheduler (struct cpc_sched) and the OS thread
    driving it, if any."""

    def __init__(self, value):
        self.value = value
        self.addr = int(value.address) if value.address is not None else 0
        self.id = int(value['id'])
        self.default = self.id == 0
        self.driver = int(value['driver'])
        self.embedded = bool(int(value['embedded']))
        self.os_thread = None

    def header(self, nthreads):
        what = 'default, ' if self.default else ''
        if self.os_thread is not None:
            who = 'driven by OS thread %d (LWP %d)' % (self.os_thread.num,
                                                       self.os_thread.ptid[1])
        elif self.embedded:
            who = 'embedded, not running now'
        else:
            who = 'not running'
        return 'CPC scheduler %d (%s0x%x), %s: %d CPC thread%s' % (
            self.id, what, self.addr, who, nthreads, '' if nthreads == 1 else 's')


def _thread_id(th):
    """pthread_self() of OS thread th (what struct cpc_sched.driver holds)."""
    try:
        return int.from_bytes(th.handle(), 'little')
    except (gdb.error, AttributeError, TypeError):
        return None


def find_schedulers():
    """Every live scheduler, the default first, then by number: the list
    the runtime keeps under its world lock (world_list in cpc_sched.c)."""
    head = _static('world_list', 'cpc_sched.c')
    out = []
    if head is not None:
        s = int(head)
        t = head.type
        seen = set()
        while s and s not in seen and len(out) < 1 << 16:
            seen.add(s)
            v = gdb.Value(s).cast(t).dereference()
            out.append(CpcScheduler(v))
            s = int(v['next'])
    else:
        d = _global('cpc__sched_default')
        if d is not None:
            out.append(CpcScheduler(d))
    out.sort(key=lambda s: s.id)
    by_handle = {_thread_id(th): th for th in gdb.selected_inferior().threads()}
    for s in out:
        if s.driver:
            s.os_thread = by_handle.get(s.driver)
    return out


class CpcThread:
    def __init__(self, k, state, order, sched=None):
        self.k = k
        self.state = state
        self.order = order           # category rank, for listing
        self.sched = sched           # the CpcScheduler it belongs to
        self.id = None
        self.os_thread = None
        self.frames = None
        self.spawn = None


def _chain(k, limit=1 << 20):
    while k and limit:
        yield k
        k = _u64(k)                  # cpc_next is the first field
        limit -= 1


def _tls(name):
    """The value of the runtime's thread-local cpc__tls_`name` on the
    selected OS thread (cpc_tls_`name` in older runtimes)."""
    for full in ('cpc__tls_' + name, 'cpc_tls_' + name):
        try:
            return int(gdb.parse_and_eval(full))
        except (gdb.error, RuntimeError):
            continue
    return None


def _running_threads(add, scheds):
    """The CPC thread each OS thread runs (one per OS thread inside a
    trampoline), with the scheduler it belongs to: the one this OS thread
    drives, or for a pool worker its thread's home."""
    by_addr = {s.addr: s for s in scheds}
    by_driver = {s.driver: s for s in scheds if s.driver}
    selected = gdb.selected_thread()
    sel_frame = gdb.selected_frame() if selected is not None else None
    running = []
    try:
        for th in sorted(gdb.selected_inferior().threads(), key=lambda t: t.num):
            th.switch()
            r = running_stack(gdb.newest_frame())
            if r is None or r[0] is None:
                continue
            k, frames, tramp = r
            detached = tramp.name() in ('cpc__sched_run', 'pool_worker') or \
                any((f.name() or '') == 'pool_worker' for f in _older(tramp))
            if detached:
                sched = by_addr.get(_tls('home'))
            else:
                sched = by_driver.get(_thread_id(th)) or \
                    by_addr.get(_tls('sched'))
            t = add(k, 'detached, running on a pool worker' if detached else 'running',
                    0, sched)
            t.os_thread = th
            t.frames = running_logical_frames(k, frames)
            running.append(t)
    finally:
        if selected is not None:
            selected.switch()
            if sel_frame is not None:
                try:
                    sel_frame.select()
                except gdb.error:
                    pass
    for t in running:
        t.state += ' (thread %d, LWP %d)' % (t.os_thread.num, t.os_thread.ptid[1])
    return running


def _scheduler_threads(add, s, now):
    """The threads scheduler s holds: run queue, inbox, timer heap, fd
    wait lists."""
    v = s.value
    for k in _chain(int(v['runq']['head'])):
        add(k, 'runnable', 1, s)
    for k in _chain(int(v['inbox_head'])):
        add(k, 'runnable (in the inbox)', 1, s)

    # sleeping, and timed condvar waits
    heap, n = int(v['tmr_heap']), int(v['tmr_n'])
    if heap:
        entries = []
        for i in range(n):
            e = heap + i * TMR_ENTRY_SIZE
            entries.append((struct.unpack('<q', _mem(e, 8))[0], _u64(e + 8), _u64(e + 16)))
        for when, seq, k in sorted(entries):
            left = max(0, when - now) / 1e9
            if seq & 1:
                cv = _u64(_wait(k) + WAIT_CV)
                add(k, 'waiting on condvar 0x%x, timeout in %.3f s' % (cv, left), 3, s)
            else:
                add(k, 'sleeping, %.3f s left' % left, 2, s)

    # fds: struct cpc__io_fd starts with the head of its wait list
    fds, nfds = int(v['io_fds']), int(v['io_nfds'])
    if fds:
        fd_size = _io_fd_size()
        for fd in range(nfds):
            k = _u64(fds + fd * fd_size)
            while k:
                w = _wait(k)
                d = _u32(w + WAIT_IO_DIR)
                dirs = '/'.join(x for b, x in ((CPC_IO_IN, 'in'), (CPC_IO_OUT, 'out')) if d & b)
                state = 'waiting for fd %d (%s)' % (_i32(w + WAIT_FD), dirs)
                if _u64(w + WAIT_LINK) & W_COND:
                    state += ' or condvar 0x%x' % _u64(w + WAIT_CV)
                add(k, state, 4, s)
                k = _u64(w + WAIT_IO_NEXT)


def _io_fd_size():
    for sym in gdb.lookup_static_symbols('io_fd_get'):
        if sym.symtab is not None and sym.symtab.filename.endswith('cpc_io.c'):
            t = _type('cpc__io_fd', sym)
            if t is not None and t.sizeof:
                return t.sizeof
    return 32


def _condvar_scheduler(magic, k, scheds):
    """The scheduler of a waiter on a condvar whose magic is `magic`."""
    by_key = {int(s.value['cv_key']): s for s in scheds}
    if magic in by_key:
        return by_key[magic]
    home = _u64(_wait(k) + HOME_OFFSET)     # a shared condvar's waiter
    return next((s for s in scheds if s.addr == home), None)


def find_threads():
    """(every CPC thread that can be found, in listing order; the
    schedulers)."""
    found = {}

    def add(k, state, order, sched=None):
        if k and k not in found:
            found[k] = CpcThread(k, state, order, sched)
        return found.get(k)

    ids = {}
    scheds = find_schedulers()
    by_addr = {s.addr: s for s in scheds}
    running = _running_threads(add, scheds)

    # runnable: the rest of a pass of cpc_scheduler_run_once hangs off
    # the thread it runs (the main loop's queue stays in runq)
    for t in running:
        if t.state.startswith('running'):
            for k in _chain(_u64(t.k)):
                add(k, 'runnable', 1, t.sched)
    now = time.monotonic_ns()
    for s in scheds:
        _scheduler_threads(add, s, now)

    # condvars (the debug runtime's list of them): waiters not found above
    cv = _global('cpc__dbg_condvars')
    if cv is not None:
        c = int(cv)
        cvtype = gdb.lookup_type('cpc_condvar').strip_typedefs().pointer()
        while c:
            cvv = gdb.Value(c).cast(cvtype)
            magic = int(cvv['magic'])
            for k in _chain(int(cvv['q']['head'])):
                add(k, 'waiting on condvar 0x%x' % c, 5, _condvar_scheduler(magic, k, scheds))
            c = int(cvv['dbg_next'])

    else:
        # the release runtime keeps no list of condvars: they are found in
        # the heap (_heap_condvars), which costs the program nothing
        for c, magic, waiters in _heap_condvars(scheds):
            for k in waiters:
                add(k, 'waiting on condvar 0x%x' % c, 5, _condvar_scheduler(magic, k, scheds))

    # the default pool's queue (each queued thread keeps its home)
    pool = _global('cpc_default_threadpool')
    if pool is not None and int(pool) != 0:
        ptype = None
        for sym in gdb.lookup_static_symbols('pool_worker'):
            if sym.symtab is not None and sym.symtab.filename.endswith('cpc_pool.c'):
                ptype = _type('cpc__pool', sym)
        if ptype is not None:
            p = gdb.Value(int(pool)).cast(ptype.pointer())
            for k in _chain(int(p['head'])):
                add(k, 'detached, queued in pool 0x%x' % int(pool), 6,
                    by_addr.get(_u64(_wait(k) + HOME_OFFSET)))

    # the debug runtime's registry: everything else, and thread numbers
    reg = _global('cpc__dbg_threads')
    if reg is not None:
        k = int(reg)
        while k:
            kv = gdb.Value(k).cast(gdb.lookup_type('cpc_continuation').pointer())
            ids[k] = int(kv['cpc_dbg_id'])
            st = int(kv['cpc_state'])
            if k not in found:
                if st == ST_NEW:
                    add(k, 'created, not spawned', 7)
                elif st == ST_PARKED:
                    add(k, 'parked (held by the program: cpc_park)', 7)
                elif st == ST_RUNNING:
                    add(k, 'running (not on any OS thread\'s cps frames)', 0)
                else:
                    add(k, 'suspended (queued in a pool)', 6)
            spawn = int(kv['cpc_dbg_spawn'])
            if spawn:
                found[k].spawn = _loc_of_pc(spawn - 1)
            k = int(kv['cpc_dbg_next'])
        key = lambda t: ids.get(t.k, 1 << 62)
    else:
        key = lambda t: t.order
    rank = {s.addr: i for i, s in enumerate(scheds)}
    threads = sorted(found.values(), key=lambda t: (
        rank.get(t.sched.addr, len(scheds)) if t.sched is not None else len(scheds), key(t)))
    for i, t in enumerate(threads, 1):
        t.id = ids.get(t.k) if reg is not None else i
    for t in threads:
        if t.frames is None:
            try:
                t.frames = continuation_frames(t.k)
                if t.state.startswith(('sleeping', 'waiting')):
                    t.frames = _tail_called(t.k, t.frames)
            except gdb.error as e:
                t.frames = [LogicalFrame('<unreadable: %s>' % e, None, [])]
    return threads, scheds
