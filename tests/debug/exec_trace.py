"""gdb script: the sequence of source lines a program executes.

Run as `gdb -nx -batch -x exec_trace.py PROGRAM` with, in the environment,
CPC_TRACE_FILES (the source files to trace, `:`-separated absolute paths)
and CPC_TRACE_OUT (where to write the trace).  The program is compiled at
-O0 -g (frames on %rbp).  A breakpoint on every row of the line table of
those files records, each time the row runs, the C function and the C
invocation it runs in (its frame's base) and the line; the trace is one
line per event, `FUNCTION-START BASE ENTRY FILE-INDEX LINE` (ENTRY is 1 on
the function's first instruction: a new C invocation), in the order they
ran.  A function is recorded until one of its rows has run MAX_HITS times:
a loop shows its order in a few turns, and the rest runs at full speed.
"""
import os

import gdb

FILES = [f for f in os.environ.get('CPC_TRACE_FILES', '').split(':') if f]
OUT = os.environ.get('CPC_TRACE_OUT')
MAX_HITS = int(os.environ.get('CPC_TRACE_MAX_HITS', '40'))
events = []
rows = {}              # function start -> its Rows
retired = set()        # functions no longer recorded


def frame_base(entry):
    """The frame base of the C invocation stopped on this row: its
    canonical frame address, the caller's %rsp as gdb unwinds it (on the
    function's first instruction, %rsp + 8).  (Not %rbp: a function with
    an over-aligned local realigns the stack in its prologue, and %rbp
    then differs from what %rsp - 8 was at its entry.)"""
    f = gdb.selected_frame()
    if entry:
        return int(f.read_register('rsp')) + 8
    older = f.older()
    if older is None:
        return int(f.read_register('rbp')) + 16
    return int(older.read_register('rsp'))


class Row(gdb.Breakpoint):
    def __init__(self, pc, fn, index, line):
        super().__init__('*0x%x' % pc, type=gdb.BP_BREAKPOINT, internal=True)
        self.silent = True
        self.fn, self.index, self.line, self.entry = fn, index, line, pc == fn
        self.recorded = 0
        rows.setdefault(fn, []).append(self)

    def stop(self):
        if self.fn in retired:
            return False
        if self.recorded >= MAX_HITS:
            # the function's first MAX_HITS runs of a row are enough: its
            # rows all stop recording at once (a sequence with some of them
            # left out could go back where the function does not), and are
            # disabled when gdb next runs its own events (not while one of
            # them stops the program)
            retired.add(self.fn)
            gdb.post_event(lambda: retire(self.fn))
            return False
        self.recorded += 1
        events.append((self.fn, frame_base(self.entry), int(self.entry), self.index, self.line))
        return False


def retire(fn):
    for r in rows[fn]:
        if r.is_valid():
            r.enabled = False


def function_start(pc):
    b = gdb.block_for_pc(pc)
    start = None
    while b is not None and not b.is_static and not b.is_global:
        if b.function is not None:
            start = b.start
        b = b.superblock
    return start


def place():
    rows = set()
    for index, path in enumerate(FILES):
        try:
            sals = gdb.decode_line('%s:1' % path)[1] or ()
        except gdb.error:
            continue
        seen = set()
        for sal in sals:
            st = sal.symtab
            if st is None or st.fullname() in seen:
                continue
            seen.add(st.fullname())
            for e in st.linetable():
                if e.line > 0:
                    rows.add((e.pc, index, e.line))
    # each function's first instruction too: gdb's table leaves out a row
    # that goes on the line of the row before it (the helpers of a cps
    # function are all on its line), and that row starts an invocation
    starts = {}
    for pc, index, line in rows:
        fn = function_start(pc)
        if fn is not None:
            starts[pc] = fn
            starts.setdefault(fn, fn)
    by_pc = {pc: (index, line) for pc, index, line in sorted(rows)}
    for fn in set(starts.values()):
        if fn not in by_pc:
            sal = gdb.find_pc_line(fn)
            index = next((i for i, f in enumerate(FILES) if sal.symtab is not None and
                          sal.symtab.fullname() == f), None)
            if index is not None and sal.line > 0:
                by_pc[fn] = (index, sal.line)
    for pc, (index, line) in sorted(by_pc.items()):
        if pc in starts:
            Row(pc, starts[pc], index, line)


gdb.execute('set pagination off')
gdb.execute('set confirm off')
gdb.execute('starti', to_string=True)
place()
gdb.execute('continue', to_string=True)
with open(OUT, 'w') as fh:
    for fn, base, entry, index, line in events:
        fh.write('%x %x %d %d %d\n' % (fn, base, entry, index, line))
