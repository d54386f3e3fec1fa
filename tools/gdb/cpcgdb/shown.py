"""The frames `bt` numbers (the frame filter's), and a frame printed as
gdb's `frame` prints it, a cps function's in the user's terms: what the
frame commands, `frame apply` and a signal's stop share."""

import re

import gdb

from .filter import _Arg, ContinuationFrame, FrameDecorator, RenamedFrame
from .names import shown_name
from .symbols import _fmt_value


def _gdb_errors(invoke):
    """A command's invoke whose gdb errors are reported as gdb reports its
    own commands' (the message alone, no Python traceback line)."""
    def wrapped(self, arg, from_tty):
        try:
            return invoke(self, arg, from_tty)
        except gdb.GdbError:
            raise
        except gdb.error as e:
            raise gdb.GdbError(str(e))
    return wrapped


def _selected_frame():
    try:
        return gdb.selected_frame()
    except gdb.error:
        raise gdb.GdbError('No stack.')


def _raw_frames():
    f = gdb.newest_frame()
    while f is not None:
        yield FrameDecorator(f)
        f = f.older()


def _shown_frames(waiting=False):
    """The decorators of the frames `bt` numbers, newest first (waiting:
    and those it shows unnumbered, the cps callers waiting in the
    continuation, ContinuationFrame)."""
    ff = gdb.frame_filters.get('cpc')
    if ff is None or not ff.enabled:
        return list(_raw_frames())
    return [d for d in ff.filter(_raw_frames())
            if waiting or not isinstance(d, ContinuationFrame)]


def _waiting_above(frames, i):
    """(j, names): the last frame j >= i of frames (all `bt` shows) before
    the cps callers waiting in the continuation, and their names; (None, [])
    when none wait above frame i."""
    last = i
    for j in range(i + 1, len(frames)):
        if isinstance(frames[j], ContinuationFrame):
            names = []
            for d in frames[j:]:
                if not isinstance(d, ContinuationFrame):
                    break
                names.append(shown_name(d.lf.func))
            return last, names
        last = j
    return None, []


def _shown_frame_of(frames, f):
    """The shown frame whose invocation frame f is part of (the newest
    shown frame not newer than f)."""
    best = frames[0] if frames else None
    for d in frames:
        if d.inferior_frame().level() > f.level():
            break
        best = d
    return best


def _print_shown_frame(dec):
    """Select the frame of decorator dec and print it as gdb's `frame`
    does, a cps function's under its name with the user's arguments."""
    f = dec.inferior_frame()
    # (selected first: gdb's `frame` prints a frame it newly selects
    # through its observers, to the terminal, past to_string)
    f.select()
    out = gdb.execute('cpc-builtin-frame-level %d' % f.level(), to_string=True)
    if '\n' in out:
        first, rest = out.split('\n', 1)
        head = re.match(r'#\d+\s+(0x[0-9a-f]+ in )?', first)
        where = _user_location(dec)
        if head and where:
            out = '%s%s\n%s' % (head.group(0), where, rest)
    gdb.write(out)


def _user_location(dec):
    """`F (ARGS) at FILE:LINE` for the frame of decorator dec of a cps
    function, as `bt` shows it; None for any other frame."""
    if not isinstance(dec, RenamedFrame):
        return None
    args = dec.frame_args() or []
    sal = dec.inferior_frame().find_sal()
    if sal.symtab is None or not all(isinstance(a, _Arg) for a in args):
        return None
    return '%s (%s) at %s:%d' % (
        dec.function(), ', '.join('%s=%s' % (a.symbol(), _fmt_value(a.value())) for a in args),
        sal.symtab.filename, sal.line)


def _print_selected_frame():
    f = _selected_frame()
    _print_shown_frame(_shown_frame_of(_shown_frames(), f))
