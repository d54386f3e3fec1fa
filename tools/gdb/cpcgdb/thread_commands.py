"""The commands on CPC threads: `info cpc-threads`, `cpc-thread N` and
`cpc bt [N]`."""

import gdb

from .runtime import _global
from .stacks import running_logical_frames, running_stack
from .symbols import _where
from .threads import CATEGORIES, find_threads


_selected_id = None


def _print_thread(t, selected):
    mark = '*' if selected else ' '
    spawn = ', spawned%s' % _where(t.spawn) if t.spawn else ''
    gdb.write('%s CPC thread %d (0x%x): %s%s\n' % (mark, t.id, t.k, t.state, spawn))
    for i, f in enumerate(t.frames):
        gdb.write('    #%-2d %s\n' % (i, f.describe()))
    if not t.frames:
        # an empty continuation: the call the thread waits in was the last
        # action of its function, which dropped its frame before it (a tail
        # call keeps no frame), and so on down to the thread's start
        gdb.write('    (no frame: the function it waits in ended with the call, which keeps '
                  'none)\n')


class InfoCpcThreads(gdb.Command):
    """Every CPC thread, its state and its logical backtrace (the cps
functions in its continuation, where each waits, its saved variables)."""

    def __init__(self):
        super().__init__('info cpc-threads', gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        _require_process()
        threads, scheds = find_threads()
        groups = [(s, [t for t in threads if t.sched is s]) for s in scheds]
        lost = [t for t in threads if t.sched is None]
        for s, ts in groups:
            gdb.write(s.header(len(ts)) + '\n')
            for t in ts:
                _print_thread(t, t.id == _selected_id)
        if lost:
            gdb.write('CPC threads of no scheduler found: %d\n' % len(lost))
            for t in lost:
                _print_thread(t, t.id == _selected_id)
        counts = {}
        for t in threads:
            key = 'detached' if t.state.startswith('detached') else CATEGORIES[t.order]
            counts[key] = counts.get(key, 0) + 1
        order = ['running', 'runnable', 'sleeping', 'condvar', 'fd', 'detached', 'new']
        gdb.write('%d CPC threads: %s\n' % (len(threads), ', '.join(
            '%d %s' % (counts[k], k) for k in order if k in counts)))
        if not _global('cpc__dbg_threads'):
            gdb.write('(release runtime: a thread held by the program with cpc_park is '
                      'listed with the debug runtime only, cpcc --cpc-debug)\n')


def _require_process():
    if not gdb.selected_inferior().pid:
        raise gdb.GdbError('The program is not being run.')


def _thread_by_id(n):
    _require_process()
    threads, _ = find_threads()
    for t in threads:
        if t.id == n:
            return t
    raise gdb.GdbError('no CPC thread %d (see info cpc-threads)' % n)


class CpcThreadCmd(gdb.Command):
    """cpc-thread N: select CPC thread N (and the OS thread running it, if
any) and print its backtrace."""

    def __init__(self):
        super().__init__('cpc-thread', gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        global _selected_id
        try:
            n = int(arg.strip())
        except ValueError:
            raise gdb.GdbError('usage: cpc-thread N')
        t = _thread_by_id(n)
        _selected_id = n
        if t.os_thread is not None:
            t.os_thread.switch()
        _print_thread(t, True)


class CpcPrefix(gdb.Command):
    """CPC commands: cpc bt [N]."""

    def __init__(self):
        super().__init__('cpc', gdb.COMMAND_STACK, prefix=True)


class CpcBt(gdb.Command):
    """cpc bt [N]: the logical backtrace of CPC thread N, or of the one
selected with cpc-thread, or of the one running on the current OS thread."""

    def __init__(self):
        super().__init__('cpc bt', gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        if arg.strip():
            t = _thread_by_id(int(arg.strip()))
        elif _selected_id is not None:
            t = _thread_by_id(_selected_id)
        else:
            r = running_stack(gdb.newest_frame())
            if r is None:
                raise gdb.GdbError('no CPC thread runs here; select one with cpc-thread N')
            k, frames, _ = r
            for i, f in enumerate(running_logical_frames(k, frames)):
                gdb.write('#%-2d %s\n' % (i, f.describe()))
            return
        _print_thread(t, True)
