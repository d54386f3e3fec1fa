"""`frame`, `up` and `down` in the user's terms.

gdb prints `frame`, `up` and `down` with its own frame printer, which
frame filters do not reach: it lists a body's C arguments cpc_k and
cpc_resume, and `up` selects the generated stubs (a resume function, an
entry) between a body and its C caller.  The extension replaces the three
commands (outside MI): they move over the frames `bt` numbers (the frame
filter's: one per invocation of a cps function, the stubs it is called
from or inlined into being part of it), select with gdb's own commands
(`select-frame` and the subcommands of gdb's `frame`, kept under aliases
made before the replacement: their argument syntax and errors stay
gdb's), and print a cps function's frame as `bt` shows it.  `up` stops at
the outermost cps frame on the stack when cps callers wait above it in the
continuation (they have no frame to select).  `frame apply`
(frame_apply.py) goes over the same frames, and `info frame`
(info_frame.py) describes the C frame of a body in the same terms."""

import gdb

from .filter import ContinuationFrame
from .frame_apply import CpcFrameApply
from .info_breakpoints import CpcInfoBreakpoints
from .info_frame import CpcInfoFrame, CpcInfoFrameSub, _INFO_FRAME_KEPT
from .shown import (_gdb_errors, _print_selected_frame, _print_shown_frame, _selected_frame,
                    _shown_frame_of, _shown_frames, _waiting_above)


_FRAME_SUBCOMMANDS = ('apply', 'level', 'function', 'address', 'pc', 'view')
_FRAME_KEPT = ('view',)                  # gdb's, as gdb prints it


class CpcFrame(gdb.Command):
    """Select and print a stack frame, a cps function's in the user's terms.
Usage: frame [LEVEL | ADDRESS]
       frame level|function|address|pc|view ...  (see `help select-frame`)
       frame apply ...  (gdb's)
With no argument, print the selected frame.  A generated function's frame
(a resume function, an entry) is part of the invocation of the cps function
it runs: its cps function's frame is selected."""

    def __init__(self):
        super().__init__('frame', gdb.COMMAND_STACK, gdb.COMPLETE_NONE, True)

    @_gdb_errors
    def invoke(self, arg, from_tty):
        if arg.strip():
            gdb.execute('select-frame ' + arg, to_string=True)
        _print_selected_frame()


class CpcFrameSub(gdb.Command):
    """`frame SUB ARGS`: `select-frame SUB ARGS`, then the selected frame
printed in the user's terms; `frame view` is gdb's (kept as
cpc-builtin-frame-view), `frame apply` is CpcFrameApply."""

    def __init__(self, sub):
        super().__init__('frame ' + sub, gdb.COMMAND_STACK)
        self.sub = sub

    @_gdb_errors
    def invoke(self, arg, from_tty):
        if self.sub in _FRAME_KEPT:
            gdb.execute('cpc-builtin-frame-%s %s' % (self.sub, arg), from_tty)
            return
        gdb.execute('select-frame %s %s' % (self.sub, arg), to_string=True)
        _print_selected_frame()


class CpcMove(gdb.Command):
    """up/down over the frames `bt` numbers."""

    def __init__(self, name, sign, edge):
        super().__init__(name, gdb.COMMAND_STACK)
        self.sign, self.edge = sign, edge

    @_gdb_errors
    def invoke(self, arg, from_tty):
        f = _selected_frame()
        n = int(gdb.parse_and_eval(arg)) if arg.strip() else 1
        every = _shown_frames(waiting=True)
        frames = [d for d in every if not isinstance(d, ContinuationFrame)]
        cur = _shown_frame_of(frames, f)
        at = next(i for i, d in enumerate(frames) if d is cur)
        i = at + self.sign * n
        top, waiting = _waiting_above(every, every.index(cur))
        if top is not None and self.sign > 0:
            # the cps callers have no C frame to select: the outermost cps
            # frame on the stack is the top of the thread's stack, not the
            # scheduler that runs it
            top = frames.index(every[top])
            if i > top:
                if not arg.strip() and at == top:
                    raise gdb.GdbError(
                        '%s: %s\'s callers (%s) wait in the thread\'s continuation, '
                        'not on the stack (bt and cpc bt show them)' % (
                            self.edge[:-1], cur.function(), ', '.join(waiting)))
                i = top
        if not 0 <= i < len(frames):
            if not arg.strip():
                raise gdb.GdbError(self.edge)
            i = max(0, min(i, len(frames) - 1))
        _print_shown_frame(frames[i])


def _replace_commands():
    """Put CpcFrame, its subcommands, up, down and CpcInfoBreakpoints in
    place of gdb's."""
    if gdb.convenience_variable('cpc_gdb_frame_commands') is None:
        for sub in _FRAME_KEPT + ('level',):
            gdb.execute('alias cpc-builtin-frame-%s = frame %s' % (sub, sub), to_string=True)
        for sub in _INFO_FRAME_KEPT + ('level',):
            gdb.execute('alias cpc-builtin-info-frame-%s = info frame %s' % (sub, sub),
                        to_string=True)
        gdb.set_convenience_variable('cpc_gdb_frame_commands', 1)
    CpcFrame()
    for sub in _FRAME_SUBCOMMANDS:
        if sub != 'apply':
            CpcFrameSub(sub)
    CpcFrameApply()
    CpcInfoFrame()
    for sub in _INFO_FRAME_KEPT + ('level',):
        CpcInfoFrameSub(sub)
    CpcMove('up', 1, 'Initial frame selected; you cannot go up.')
    CpcMove('down', -1, 'Bottom (innermost) frame selected; you cannot go down.')
    CpcInfoBreakpoints()
