"""`cps` written in place of a type specifier becomes `int`.

`cps *p;` declares, as C89's implicit int does, a pointer to int whose only
specifier is `cps` (gcc accepts it with a warning; `cps` is then only an
attribute of the declaration).  In C mode the runtime header's `cps` is
empty, so that the spelling `__attribute__((cps))` (QEMU's `coroutine_fn`
macro) stays valid in headers the generated C includes; copied as written,
the declaration would lose its last specifier.  The token is written out as
`int`, three bytes for three, so no offset moves.  A `cps` that comes out
of a macro is left alone.

Invariant of the output: no declaration of the main file is written with
`cps` as its only type specifier.
"""
from . import clex
from . import frontend as fe

K = fe.K

DECLS = (K.VAR_DECL, K.FIELD_DECL, K.PARM_DECL, K.TYPEDEF_DECL, K.FUNCTION_DECL)


def _cps_specifier(u, n):
    """The offset of the `cps` token written before declarator n, or None."""
    w = u.written(n)
    if w is None:
        return None
    a, name = w[0], n.location.offset
    if not a <= name <= len(u.text):
        return None
    for t in clex.tokens(u.text[a:name]):
        if t.kind == clex.ID and t.text == b'cps':
            return a + t.start
    return None


def _sites(u):
    offsets = fe.implicit_int_offsets(u)
    if not offsets:
        return []
    out = []
    for n in _walk(u.tu.cursor):
        if n.kind in DECLS and n.location.offset in offsets and u.in_main_file(n):
            at = _cps_specifier(u, n)
            if at is not None:
                out.append((n, at))
    return out


def _walk(c):
    stack = [c]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(fe.kids(n)))


def write_int(u):
    return [(at, at + 3, 'int') for at in sorted({at for (_n, at) in _sites(u)})]


def check(u):
    return [u.diag(n, '`%s` is still declared with `cps` as its only type specifier'
                   % n.spelling) for (n, _at) in _sites(u)]
