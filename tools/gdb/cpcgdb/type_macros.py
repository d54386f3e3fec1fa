"""`ptype` and `whatis` on the user's variables of a cps frame that gdb's
expressions cannot name (frame_names.py).

Unlike `print` (print_command.py), these have no twin command that a
replacement could run with the expression rewritten, and a Python command
replacing them would have to redo gdb's type printer.  So the hooks before
them define a gdb macro per such variable of the selected frame, `macro
define x (*(int *) 0x...)` (gdb expands user macros in every expression,
debug information for macros or not), and the hooks after them, or the
next stop or prompt should the command fail, take the macros back: they
apply during those two commands, in that frame only.  A macro expands
after `.` and `->` too: `ptype s.x` fails in a frame where a variable x is
so defined (`print s.x` does not)."""

import gdb

from .frame_names import frame_variables, stand_in
from .names import GENERATED_RE
from .symbols import cname
from .tables import resident_names

_defined = []            # the names of the macros in force


def define(kind=None):
    """Before ptype/whatis: a macro for each variable of the selected cps
    frame that gdb finds no C variable for, or finds the body's C parameter
    for where the variable is resident in the frame."""
    release()
    try:
        frame = gdb.selected_frame()
        if not GENERATED_RE.match(cname(frame) or ''):
            return
        found = frame_variables(frame)
        resident = resident_names(frame)
        for name, v in found.items():
            sym = gdb.lookup_symbol(name, frame.block())[0]
            if sym is None or (name in resident and sym.is_argument):
                gdb.execute('macro define %s %s' % (name, stand_in(name, v)), to_string=True)
                _defined.append(name)
    except (gdb.error, RuntimeError, ValueError):
        pass
    if _defined:
        gdb.events.before_prompt.connect(release)
        gdb.events.stop.connect(release)


def release(event=None):
    """Take the macros of `define` back."""
    if not _defined:
        return
    for name in _defined:
        try:
            gdb.execute('macro undef %s' % name, to_string=True)
        except gdb.error:
            pass
    del _defined[:]
    for registry in (gdb.events.before_prompt, gdb.events.stop):
        try:
            registry.disconnect(release)
        except (RuntimeError, ValueError):
            pass
