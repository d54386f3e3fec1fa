"""`print` and `set variable` that name the user's variables of a cps
frame, those with no C variable of their name (frame_names.py), as `info
locals` shows them.

gdb looks the names of an expression up in the debug information, where a
variable resident in the frame (cpcc -O1 and above) has no C variable, so
gdb's own `print x` says `No symbol "x" in current context.`.  No hook sees
a command's arguments and gdb has no Python hook into its symbol lookup:
the extension replaces the two commands (outside MI).  `print` runs gdb's
`call`, the same command but for a void value, which `call` does not show,
with the same options and formats; `set variable` evaluates the expression
as gdb's does.  An expression gdb evaluates as written is left alone (a
native frame, a C variable of the name, a member `s.x`); only a name gdb
reported unknown, and a variable of the selected cps frame, is rewritten,
then gdb's error stands for any other."""

import re

import gdb

from .frame_names import evaluate_in_frame
from .shown import _gdb_errors
from .type_macros import release as _release_type_macros

# `set variable`'s warning, as gdb words it, for an expression that assigns
# nothing (its parse's top operator: =, OP=, ++, --, or a comma)
_ASSIGNS_RE = re.compile(r'(?<![=!<>])=(?!=)|\+\+|--|,')


def _split_print_args(arg):
    """(options and format, expression) of print's argument: a /FMT, or
    options ended by `--`, as gdb requires once any is given."""
    s = arg.lstrip()
    if s.startswith('/'):
        fmt, _, rest = s.partition(' ')
        return fmt + ' ', rest
    if s.startswith('-'):
        m = re.search(r'(^|\s)--(\s|$)', s)
        if m:
            return s[:m.end()], s[m.end():]
    return '', arg


class CpcPrint(gdb.Command):
    """Print the value of an expression, a cps function's variables under the
user's names.
Usage: print [[OPTION]... --] [/FMT] [EXP]
As gdb's own `print` (see `help call`, which takes the same options and
formats): in a frame of a cps function, a variable of the user's that lives
in the thread's frame or heap environment, or that the C renamed, is named
as in the program (`print x`, `print x + 1`, `print s.x`)."""

    def __init__(self):
        super().__init__('print', gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    @_gdb_errors
    def invoke(self, arg, from_tty):
        _release_type_macros()          # (should a failed ptype have left them)
        head, expr = _split_print_args(arg)
        before = gdb.history_count()
        evaluate_in_frame(lambda e: gdb.execute('call ' + head + e, from_tty), expr)
        if gdb.history_count() == before:
            # (a void value, which print shows and call does not: also the
            # last value again, for an empty expression, when that value is
            # void; an empty history is call's error, as print's)
            n = gdb.add_history(gdb.parse_and_eval('(void)0'))
            gdb.write('$%d = void\n' % n)


class CpcSetVariable(gdb.Command):
    """Evaluate expression EXP and assign the result to a variable, a cps
function's variables under the user's names.
Usage: set variable EXP
As gdb's own `set variable`: in a frame of a cps function, a variable of the
user's that lives in the thread's frame or heap environment, or that the C
renamed, is named as in the program (`set var x = 5` writes it there)."""

    def __init__(self):
        super().__init__('set variable', gdb.COMMAND_DATA, gdb.COMPLETE_EXPRESSION)

    @_gdb_errors
    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError('Argument required (expression to compute).')
        _release_type_macros()
        if not _ASSIGNS_RE.search(re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'', '', arg)):
            gdb.write('warning: Expression is not an assignment (and might have no effect)\n',
                      gdb.STDERR)
        evaluate_in_frame(gdb.parse_and_eval, arg)


def replace_print_commands():
    CpcPrint()
    CpcSetVariable()
