"""`info breakpoints` in the user's terms.

A location in a generated function (chunk K > 1 of a body cut into
chunks, F__body_K; a resume function or an entry a body is inlined into)
is listed under the cps function's name, as `bt` shows its frames.
Replacing `info breakpoints` leaves gdb's own unreachable (its aliases
follow the replacement), so the table is gdb's `maint info breakpoints`
less what only that one shows: the internal breakpoints (negative
numbers), the location row of a breakpoint with a single location, the
inferior of each location when there is one inferior.  The rows'
function names are mapped with user_name (bp_table.py rewrites the
table)."""

import gdb

from .bp_table import user_breakpoint_table
from .shown import _gdb_errors
from .symbols import user_name


def _breakpoint_numbers(arg):
    """The breakpoint numbers `info breakpoints ARG` asks for (numbers,
    ranges N-M, convenience variables), as gdb reads them."""
    wanted = set()
    try:
        for tok in arg.split():
            a, dash, b = tok.partition('-') if not tok.startswith('-') else (tok, '', '')
            lo = int(gdb.parse_and_eval(a))
            hi = int(gdb.parse_and_eval(b)) if dash else lo
            wanted.update(range(lo, hi + 1))
    except (gdb.error, ValueError):
        return set()                    # (gdb: no breakpoint matches)
    return wanted


class CpcInfoBreakpoints(gdb.Command):
    """Status of user-settable breakpoints, watchpoints and catchpoints, as
gdb's `info breakpoints` (arguments: breakpoint numbers or ranges), a
location in code generated for a cps function F listed as in F."""

    def __init__(self):
        super().__init__('info breakpoints', gdb.COMMAND_BREAKPOINTS)

    @_gdb_errors
    def invoke(self, arg, from_tty):
        wanted = _breakpoint_numbers(arg) if arg.strip() else None
        out = user_breakpoint_table(gdb.execute('maint info breakpoints', to_string=True),
                                    wanted, len(gdb.inferiors()) == 1, user_name)
        if out is None:
            out = "No breakpoint or watchpoint matching '%s'.\n" % arg.strip() \
                if wanted is not None \
                else 'No breakpoints or watchpoints.\n'
        gdb.write(out)
