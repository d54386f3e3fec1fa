"""Attributes after the declarator of a function definition move in front.

`static int f(int *p) __attribute__((cpc_no_retain)) { ... }` is how the
original CPC's programs mark a function that keeps no pointer (CIL read it,
and so does Clang), but gcc rejects attributes between the declarator and
the body of a definition.  The specifiers move, as written, to the start of
the definition, where gcc reads them as attributes of the function; their
place keeps its line breaks, so the lines that follow do not move.

Invariant of the output: no function definition of the main file has an
attribute specifier between its parameter list and its body.
"""
from . import clex
from . import cps_free
from . import frontend as fe
from .cursors import kids
from . import rewrite as rw

K = fe.K


def _trailing(u, c):
    """(a, b): the attribute specifiers between the parameter list of
    definition c and its body, or None.  Definitions whose declarator is
    not `name(...)` written in the file (a macro, a function returning a
    function pointer, an old-style definition) are left alone."""
    # (a function without cps code has its children listed one level: its
    # body is not listed, cps_free.py)
    body = [k for k in (kids(c) if cps_free.may_hold_cps(u, c) else c.get_children())
            if k.kind == K.COMPOUND_STMT]
    if not body or u.written(c) is None:
        return None
    name = c.location.offset
    b = body[-1].extent.start.offset
    if not u.text.startswith(c.spelling.encode(), name) or name >= b:
        return None
    depth, end = 0, None
    for t in clex.tokens(u.text[name:b]):
        if t.kind != clex.PUNCT:
            continue
        if t.text == b'(':
            depth += 1
        elif t.text == b')':
            depth -= 1
            if depth == 0:
                end = name + t.end
                break
    if end is None:
        return None
    after = rw.after_attributes(u.text, end)
    if after == end or u.text[after:b].strip():
        return None
    return end, after


def move(u):
    edits = []
    for c in u.function_defs():
        if not u.in_main_file(c):
            continue
        r = _trailing(u, c)
        if r is None:
            continue
        a, b = r
        spec = u.text[a:b]
        keep = bytes(ch if ch in b'\n' else 32 for ch in spec).decode()
        start = c.extent.start.offset
        edits.append((start, start, spec.decode('utf-8', 'surrogateescape').replace('\n', ' ')
                      .strip() + ' '))
        edits.append((a, b, keep))
    return edits


def check(u):
    return [u.diag(c, 'function `%s` still has attributes after its declarator' % c.spelling)
            for c in u.function_defs() if u.in_main_file(c) and _trailing(u, c) is not None]
