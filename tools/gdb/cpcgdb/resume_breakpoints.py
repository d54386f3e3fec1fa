"""The breakpoints next, step and finish over cps calls run to: stops where
one thread (its continuation k, followed when cpc_continuation_grow moves
it) gets to an address, and probes that never stop the program.

A cps call site returns to the trampoline (`return g__cps(k, ...)`) and
the caller's body is entered again at the label F__resumed_N when the
callee returns, maybe after other threads ran.  So `next` (or a `step`
that does not enter the callee) on a line with a cps call, and `finish`
out of a cps function, would stop in the body's epilogue or the
scheduler.  Hooks on those commands (step_targets.py, step_finish.py) set
a breakpoint on the resume label for this thread only, run to it, and for
next/step go on to the call's next line."""

import gdb

from .continuation import _returned_value
from .cpsframe import _frame_k
from .symbols import _function_block, _owns


class _ResumeBreakpoint(gdb.Breakpoint):
    """Stops where this thread (continuation k) gets to addr; at_entry: addr
    is a function's first instruction, where its arguments are still in
    their registers (cpc_k, the first, in rdi: the x86-64 ABI)."""

    stopper = False     # only stops a step on its way (see _after_step)

    def __init__(self, addr, k, at_entry=False):
        super().__init__('*0x%x' % addr if isinstance(addr, int) else addr, internal=True)
        self.silent = True
        self.k = k
        self.at_entry = at_entry
        self.hit = False
        self.returning = None       # (finish) the type the function returns
        self.value = None           # (finish) what it returned
        self.then = None            # (finish) where the stop goes on to, past the restores
        self.moves = _MoveTracker(self)

    def stop(self):
        f = gdb.selected_frame()
        k = int(f.read_register('rdi')) if self.at_entry else _frame_k(f)
        if k != self.k:
            return False
        self.hit = True
        if self.returning is not None:
            # (the callee's result, above the caller's frame, before the
            # caller takes it and maybe drops its frame)
            try:
                self.value = _returned_value(self.returning, k)
                self.value.fetch_lazy()
            except (gdb.error, RuntimeError, ValueError):
                self.value = None
        return True

    def remove(self):
        self.moves.remove()
        if self.is_valid():
            self.delete()


class _MoveTracker:
    """Follows a continuation through cpc_continuation_grow: its entry
    takes the old address (first argument), each of its `ret` instructions
    gives the new one (result register).  Never stops the program."""

    def __init__(self, owner):
        self.owner = owner
        self.moving = False
        self.bps = []
        sym = gdb.lookup_global_symbol('cpc_continuation_grow')
        if sym is None:
            return
        try:
            start = int(sym.value().address)
            fb = _function_block(start)
            arch = gdb.selected_inferior().architecture()
            rets = [i['addr'] for i in arch.disassemble(fb.start, fb.end - 1)
                    if i['asm'].split()[0].startswith('ret') and _owns(fb, i['addr'])]
        except (gdb.error, RuntimeError, AttributeError):
            return
        self.bps.append(_Probe(start, self.on_entry))
        self.bps += [_Probe(a, self.on_return) for a in rets]

    def on_entry(self):
        self.moving = int(gdb.selected_frame().read_register('rdi')) == self.owner.k

    def on_return(self):
        if self.moving:
            self.owner.k = int(gdb.selected_frame().read_register('rax'))
            self.moving = False

    def remove(self):
        for b in self.bps:
            if b.is_valid():
                b.delete()
        self.bps = []


class _Probe(gdb.Breakpoint):
    def __init__(self, addr, fn):
        super().__init__('*0x%x' % addr if isinstance(addr, int) else addr, internal=True)
        self.silent = True
        self.fn = fn

    def stop(self):
        try:
            self.fn()
        except (gdb.error, RuntimeError, ValueError):
            pass
        return False
