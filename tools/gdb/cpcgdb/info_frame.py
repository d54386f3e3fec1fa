"""`info frame` in the user's terms: a cps function's C frame described under
its name, with its arguments and the frames bt shows around it."""

import re

import gdb

from .filter import _Arg, ContinuationFrame, RenamedFrame
from .shown import _gdb_errors, _selected_frame, _shown_frame_of, _shown_frames
from .names import shown_name
from .symbols import _fmt_value


_INFO_FRAME_KEPT = ('address', 'function', 'view')   # gdb's, as gdb prints them


def _cfa(f):
    """The address gdb's `info frame` gives frame f (`frame at ADDR`)."""
    out = gdb.execute('cpc-builtin-info-frame-level %d' % f.level(), to_string=True)
    m = re.search(r'frame at (0x[0-9a-f]+)', out)
    return m.group(1) if m else None


def _describe_frame(f):
    """gdb's `info frame` of frame f, a cps function's invocation in the
    user's terms: the frame `bt` numbers that f is part of, under the
    function's name, with the user's arguments, called by the frame `bt`
    shows above it (or by the cps callers waiting in the continuation), and
    the caller of the one `bt` shows below it."""
    every = _shown_frames(waiting=True)
    frames = [d for d in every if not isinstance(d, ContinuationFrame)]
    dec = _shown_frame_of(frames, f)
    if dec is None:
        return gdb.execute('cpc-builtin-info-frame-level %d' % f.level(), to_string=True)
    f = dec.inferior_frame()
    out = gdb.execute('cpc-builtin-info-frame-level %d' % f.level(), to_string=True)
    if f == gdb.selected_frame():
        out = re.sub(r'^Stack frame at', 'Stack level %d, frame at' % f.level(), out)
    at = frames.index(dec)
    newer = frames[at - 1] if at > 0 else None
    raw_newer = f.newer()
    if newer is not None and raw_newer is not None and raw_newer != newer.inferior_frame():
        # (the frame below is a cps invocation of several C frames: its body's)
        out = re.sub(r'caller of frame at 0x[0-9a-f]+',
                     'caller of frame at %s' % _cfa(newer.inferior_frame()), out, count=1)
    if not isinstance(dec, RenamedFrame):
        return out
    nxt = every.index(dec) + 1
    waiting = []
    while nxt < len(every) and isinstance(every[nxt], ContinuationFrame):
        waiting.append(shown_name(every[nxt].lf.func))
        nxt += 1
    older = frames[at + 1] if at + 1 < len(frames) else None
    if waiting:
        called = 'called by %s (waiting in the thread\'s continuation, no frame on the ' \
                 'stack)' % ', '.join(waiting)
    elif older is not None:
        called = 'called by frame at %s' % _cfa(older.inferior_frame())
    else:
        called = None
    if older is not None:
        # (the return into the frame bt shows next, past the generated ones)
        out = re.sub(r'; saved rip = 0x[0-9a-f]+',
                     '; saved rip = 0x%x' % older.inferior_frame().pc(), out, count=1)
    m = re.search(r'^ (called by frame at 0x[0-9a-f]+)?(, )?(caller of frame at 0x[0-9a-f]+)?\n',
                  out, re.M)
    links = ', '.join(x for x in (called, m.group(3) if m else None) if x)
    if m and m.group(0).strip():
        out = out[:m.start()] + (' %s\n' % links if links else '') + out[m.end():]
    elif links:
        out = re.sub(r'^( rip = .*\n)', lambda r: r.group(1) + ' %s\n' % links, out, count=1,
                     flags=re.M)
    out = re.sub(r'^( rip = 0x[0-9a-f]+ in )\S+', lambda r: r.group(1) + dec.function(), out,
                 count=1, flags=re.M)
    if f.older() is not None and _shown_frame_of(frames, f.older()) is dec:
        # (optimised, the body inlined into the generated function it runs
        # in, which is part of the invocation)
        out = re.sub(r'^ inlined into frame \d+(, |\n)', lambda r: ' ' if r.group(1) == ', '
                     else '', out, count=1, flags=re.M)
    args = dec.frame_args() or []
    if all(isinstance(a, _Arg) for a in args):
        out = re.sub(r'(, args:).*$', lambda r: r.group(1) + (' ' if args else '') + ', '.join(
            '%s=%s' % (a.symbol(), _fmt_value(a.value())) for a in args), out, count=1,
            flags=re.M)
    return out


class CpcInfoFrame(gdb.Command):
    """All about the selected stack frame, a cps function's in the user's
terms (its name, its arguments, the frames `bt` shows around it).
Usage: info frame
       info frame level LEVEL
       info frame address|function|view ...  (gdb's)"""

    def __init__(self):
        super().__init__('info frame', gdb.COMMAND_STATUS, gdb.COMPLETE_NONE, True)

    @_gdb_errors
    def invoke(self, arg, from_tty):
        if arg.strip():
            gdb.execute('info frame level ' + arg, from_tty)
            return
        gdb.write(_describe_frame(_selected_frame()))


class CpcInfoFrameSub(gdb.Command):
    """`info frame SUB ARGS`: level in the user's terms; address, function,
view are gdb's (kept as cpc-builtin-info-frame-SUB)."""

    def __init__(self, sub):
        super().__init__('info frame ' + sub, gdb.COMMAND_STATUS)
        self.sub = sub

    @_gdb_errors
    def invoke(self, arg, from_tty):
        if self.sub != 'level':
            gdb.execute('cpc-builtin-info-frame-%s %s' % (self.sub, arg), from_tty)
            return
        if not arg.strip():
            gdb.execute('cpc-builtin-info-frame-level', from_tty)     # (gdb's error)
            return
        n = int(gdb.parse_and_eval(arg))
        f = gdb.newest_frame()
        for _ in range(n):
            f = f.older() if f is not None else None
        if f is None:
            # (gdb's error)
            gdb.execute('cpc-builtin-info-frame-level %s' % arg, from_tty)
            return
        gdb.write(_describe_frame(f))
