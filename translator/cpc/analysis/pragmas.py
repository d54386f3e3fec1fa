"""The `#pragma pack` in effect at a point of a function, as far as it differs
from the one in effect where the function starts.

Passes that move a record defined in a function to file scope, just before
the function, need it: the record's layout follows the packing in effect
where it is defined, and a pragma inside the function may have changed it.
The pragmas are read from the main file's text between the two points, in
the groups of conditional directives the front-end took (conditionals.py
made those the C compiler's), with GCC's meaning: `pack(N)` and `pack()`
set the packing (`pack()` to the target's default), `pack(push[, id][, N])`
saves it (and sets N), `pack(pop[, id])` restores the saved one.

Invariant: nothing here changes the program.  `pack_change` returns None
when the packing at the end is the one at the start, else the packing there
(0 for the default); it raises a diagnostic when it cannot tell (a `pop`
of a packing saved before the function, a `push` or `pop` by name).
"""
import re

from .. import frontend as fe

_PACK_RE = re.compile(rb'^[ \t]*#[ \t]*pragma[ \t]+pack[ \t]*\(([^)\n]*)\)', re.M)
_START = 'start'          # the packing where the function starts, whatever it is


def pack_change(u, start, end, at):
    """The packing in effect at offset `end` if the `#pragma pack` lines
    between offsets `start` and `end` changed it, else None.  `at` is the
    cursor a diagnostic points to."""
    skipped = fe.skipped_ranges(u)
    current, saved = _START, []
    for m in _PACK_RE.finditer(u.text, start, end):
        if any(a <= m.start() < b for (a, b) in skipped):
            continue
        args = [x.strip() for x in m.group(1).decode('utf-8', 'replace').split(',')]
        args = [x for x in args if x]
        op = args[0] if args else ''
        if op == 'push':
            if any(not x.isdigit() for x in args[1:]):
                raise _unknown(u, at)
            saved.append(current)
            if len(args) > 1:
                current = int(args[-1])
        elif op == 'pop':
            if len(args) > 1 or not saved:
                raise _unknown(u, at)
            current = saved.pop()
        elif op == '':
            current = 0
        elif op.isdigit() and len(args) == 1:
            current = int(op)
        # (anything else, `pack(show)`, changes nothing)
    return None if current == _START else current


def _unknown(u, at):
    return fe.Diags([u.diag(at, 'cannot tell the `#pragma pack` in effect here (a pragma '
                            'before it in this function restores or names a packing '
                            'saved outside the function): define this type outside '
                            'the function')])


def pragma_lines(pack):
    """The lines that give what follows packing `pack`, and the line that
    restores the packing before them."""
    if pack == 0:
        return '#pragma pack(push)\n#pragma pack()\n', '#pragma pack(pop)\n'
    return '#pragma pack(push, %d)\n' % pack, '#pragma pack(pop)\n'
