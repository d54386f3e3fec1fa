"""The pragmas written in a function, and the `#pragma pack` in effect at a
point of it, as far as it differs from the one where the function starts.

`written_in` gives the `#pragma` lines and `_Pragma("...")` operators written
in a range of the main file (not those that come out of macros), in the
groups of conditional directives the front-end took (conditionals.py made
those the C compiler's), each as a `#pragma` line.

Passes that move a record defined in a function to file scope, just before
the function, need it: the record's layout follows the packing in effect
where it is defined, and a pragma inside the function may have changed it.
The packing is read from the pragmas written between the two points, with
GCC's meaning: `pack(N)` and `pack()` set the packing (`pack()` to the
target's default), `pack(push[, N])` saves it (and sets N), `pack(pop)`
restores the saved one.

Invariant: nothing here changes the program.  `pack_change` returns None
when the packing at the end is the one at the start, else the packing there
(0 for the default); it raises a diagnostic when it cannot tell (a `pop`
of a packing saved before the function, a `push` or `pop` by name).
"""
import re

from .. import clex
from .. import frontend as fe
from ..libclang import skipped_ranges


_PRAGMA_RE = re.compile(r'#\s*pragma\b')
_PACK_RE = re.compile(r'#\s*pragma\s+pack\s*\(([^)\n]*)\)')
_ESCAPE_RE = re.compile(r'\\([\\"])')
_START = 'start'          # the packing where the function starts, whatever it is


def written_in(u, a, b):
    """(offset, `#pragma` line) of each pragma written in u.text[a:b]."""
    text = u.text[a:b]
    if b'pragma' not in text and b'_Pragma' not in text:
        return []
    skipped = skipped_ranges(u)
    toks = clex.tokens(text)
    out = []
    for i, t in enumerate(toks):
        line = None
        if t.kind == clex.PP:
            line = t.text.decode('utf-8', 'surrogateescape')
            if not _PRAGMA_RE.match(line):
                continue
        elif t.kind == clex.ID and t.text == b'_Pragma' and \
                [x.text for x in toks[i + 1:i + 4:2]] == [b'(', b')'] and \
                toks[i + 2].kind == clex.STR and toks[i + 2].text.startswith(b'"'):
            line = '#pragma ' + _destringized(toks[i + 2].text)
        if line is not None and not any(x <= a + t.start < y for (x, y) in skipped):
            out.append((a + t.start, line))
    return out


def _destringized(literal):
    """The text a `_Pragma` operator's string literal stands for (C11 6.10.9)."""
    return _ESCAPE_RE.sub(r'\1', literal[1:-1].decode('utf-8', 'surrogateescape'))


def pack_change(u, start, end, at):
    """The packing in effect at offset `end` if the `#pragma pack` lines
    between offsets `start` and `end` changed it, else None.  `at` is the
    cursor a diagnostic points to."""
    current, saved = _START, []
    for _, line in written_in(u, start, end):
        m = _PACK_RE.match(line)
        if m is None:
            continue
        args = [x.strip() for x in m.group(1).split(',')]
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
