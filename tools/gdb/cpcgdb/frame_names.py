"""The user's variables of a cps frame that gdb's expressions cannot name:
those resident in the frame (read in place, with no C variable: cpcc -O1
and above), boxed in the heap environment, or renamed apart in the C
(`x__2`), which `info locals` shows under the user's names.  An expression
of the user's is rewritten to reach them: each such name that gdb reported
unknown ("No symbol "x" in current context.") becomes the object itself,
`(*(int *) 0x...)`, an lvalue (so `set var x = 5` writes the frame), or a
convenience variable holding its value where it has no address (a register,
<optimized out>).  Only where the name stands for a variable: not after `.`
or `->` (a member), `::` (a scope), `$` (gdb's own variables), nor inside a
string or character literal.  A parameter resident in the frame is
rewritten too: gdb finds the body's C parameter of its name, which holds
the value the function was entered with, not the variable's."""

import re

import gdb

from .names import GENERATED_RE
from .symbols import cname
from .tables import resident_names
from .variables import _frame_variables

NO_SYMBOL_RE = re.compile(r'^No symbol "([A-Za-z_]\w*)" in current context\.$')

# the pieces of an expression: literals and numbers (skipped whole), and names
_TOKEN_RE = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|\d[\w.]*|[A-Za-z_$][\w$]*')


def frame_variables(frame):
    """{user's name: gdb.Value} of the variables of cps frame `frame` that
    `info locals` and `info args` show (empty for any other frame)."""
    try:
        if frame is None or not GENERATED_RE.match(cname(frame)):
            return {}
    except (gdb.error, RuntimeError):
        return {}
    found = {}
    for args in (True, False):
        for name, v in _frame_variables(frame, args) or []:
            if isinstance(v, gdb.Value) and name not in found:
                found[name] = v
    return found


def stand_in(name, v):
    """The text that names variable `name`, value v, in an expression."""
    try:
        addr = v.address
    except (gdb.error, RuntimeError):
        addr = None
    if addr is not None and not v.is_optimized_out:
        return '(*(%s) 0x%x)' % (addr.type, int(addr))
    var = 'cpc_var_' + name
    gdb.set_convenience_variable(var, v)
    return '$' + var


def rewrite(expr, name, v):
    """expr with each use of variable `name` as a variable replaced by the
    object (or value) v."""
    out, at = [], 0
    for m in _TOKEN_RE.finditer(expr):
        if m.group(0) != name:
            continue
        before = expr[:m.start()].rstrip()
        after = expr[m.end():].lstrip()
        if before.endswith(('.', '->', '::')) or after.startswith('::'):
            continue
        out.append(expr[at:m.start()])
        out.append(stand_in(name, v))
        at = m.end()
    out.append(expr[at:])
    return ''.join(out)


def _stale_parameters(frame, expr):
    """expr with the parameters resident in cps frame `frame` that it names
    rewritten: gdb finds the body's C parameter of the name, which holds
    the value the function was entered with (or none, optimised), not the
    variable, which lives in the frame (an inner block's C variable of the
    name stays)."""
    names = resident_names(frame)
    if not names:
        return expr
    found = None
    for n in sorted(names):
        if not re.search(r'\b%s\b' % re.escape(n), expr):
            continue
        try:
            sym = gdb.lookup_symbol(n, frame.block())[0]
        except (gdb.error, RuntimeError):
            continue
        if sym is None or not sym.is_argument:
            continue
        if found is None:
            found = frame_variables(frame)
        if n in found:
            expr = rewrite(expr, n, found[n])
    return expr


def evaluate_in_frame(run, expr):
    """run(expr), and, while gdb reports a name of the selected frame's
    variables unknown (see the module's docstring), run(expr rewritten to
    reach it); gdb's error otherwise.  A parameter resident in the frame
    is rewritten first (_stale_parameters)."""
    try:
        frame = gdb.selected_frame()
    except gdb.error:
        frame = None
    if frame is not None and GENERATED_RE.match(cname(frame) or ''):
        expr = _stale_parameters(frame, expr)
    tried = set()
    while True:
        try:
            return run(expr)
        except gdb.error as e:
            m = NO_SYMBOL_RE.match(str(e))
            if m is None or m.group(1) in tried:
                raise
            name = m.group(1)
            tried.add(name)
            try:
                frame = gdb.selected_frame()
            except gdb.error:
                raise e
            v = frame_variables(frame).get(name)
            if v is None:
                raise
            new = rewrite(expr, name, v)
            if new == expr:
                raise
            expr = new
