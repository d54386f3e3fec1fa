"""A signal's stop, and finish's stop in a resume function.

gdb prints the frame of a stop itself, after the hook `hook-stop` runs:
for a signal (`handle SIG stop` implies `print`), and for `finish` from
a cps function's body, whose C caller is a resume function or an entry
(the hookpost-finish then goes on to the cps caller's line).  For a
signal in a cps function the hook prints the frame line in the user's
terms; for finish's stop in the C caller, hook-finish has asked for no
C result (`print finish off`, and `print frame-arguments presence` for
its `Run till exit from` line).  gdb then prints the source line only
(`print frame-info source-line`, `print address off`); the stop event,
which comes after gdb's print, puts the settings back."""

import gdb

from . import state
from .names import GENERATED_RE
from .shown import _shown_frame_of, _shown_frames, _user_location
from .step_end import _step_goes_on
from .symbols import cname


SIGTRAP = 5


def _set_until_stop(*settings):
    """`set NAME VALUE` for each (NAME, VALUE), put back at the next stop
    event (after gdb printed the stop)."""
    if state.saved_print is None:
        state.saved_print = []
    for name, value in settings:
        if name not in [n for n, _ in state.saved_print]:
            state.saved_print.append((name, gdb.parameter(name)))
        gdb.execute('set %s %s' % (name, value))


def _quiet_stop_print():
    """gdb prints the stop about to be printed as its source line only."""
    _set_until_stop(('print frame-info', 'source-line'), ('print address', 'off'))


def _restore_stop_print(event=None):
    state.finish_caller = None
    if state.saved_print is not None:
        saved, state.saved_print = state.saved_print, None
        for name, value in saved:
            if isinstance(value, bool):
                value = 'on' if value else 'off'
            gdb.execute('set %s %s' % (name, value))


def _quiet_finish(start):
    """Before a finish from cps frame start: its stop in start's C caller
    (generated code) is not printed (by _before_stop_print), nor its C
    result."""
    try:
        caller = start.older()
    except (gdb.error, RuntimeError):
        return
    if caller is not None and GENERATED_RE.match(cname(caller)):
        # (and, should finish_line not rewrite its `Run till exit from`
        # line, typed at a terminal, that line without
        # the body's C arguments)
        state.finish_caller = caller
        _set_until_stop(('print finish', 'off'), ('print frame-arguments', 'presence'))


def _before_stop_print(kind=None):
    try:
        sig = int(gdb.parse_and_eval('$_siginfo.si_signo'))
        f = gdb.selected_frame()
    except (gdb.error, RuntimeError, ValueError):
        _restore_stop_print()
        return
    if state.finish_caller is not None:
        try:
            there = sig == SIGTRAP and state.finish_caller.is_valid() and f == state.finish_caller
        except (gdb.error, RuntimeError):
            there = False
        if there:
            _set_until_stop(('suppress-cli-notifications', 'on'))   # finish's stop in the C caller
            return
        _restore_stop_print()            # finish stopped elsewhere: as gdb prints it
    if sig == SIGTRAP:
        if not state.continuing and _step_goes_on(f):
            # (the end of gdb's own next/step in the body's epilogue or the
            # scheduler, where the hook goes on from: not the user's line)
            state.quiet_step = True
            _set_until_stop(('suppress-cli-notifications', 'on'))
        return
    try:
        dec = _shown_frame_of(_shown_frames(), f)
        where = _user_location(dec) if dec is not None and \
            dec.inferior_frame() == f else None
    except (gdb.error, RuntimeError, ValueError):
        return
    if where is None:
        return
    sal = f.find_sal()
    where = '%s%s\n' % ('0x%016x in ' % f.pc() if f.pc() != sal.pc else '', where)
    if state.continuing:
        # (a signal met while the extension runs the program on to where a
        # next/step/finish ends: gdb would print the stop past the capture of
        # the `continue`, which this hook's output is in; _continue prints
        # it, whole)
        state.signal_where = where
        _set_until_stop(('suppress-cli-notifications', 'on'))
        return
    gdb.write(where)
    _quiet_stop_print()
