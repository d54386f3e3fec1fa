"""A declaration whose only specifier is `cps` gets `int`.

`cps *p;` declares, as C89's implicit int does, a pointer to int whose only
specifier is `cps` (gcc accepts it with a warning; `cps` is then only an
attribute of the declaration).  In C mode the runtime header's `cps` is
empty, so that the spelling `__attribute__((cps))` (QEMU's `coroutine_fn`
macro) stays valid in headers the generated C includes; copied as written,
the declaration would lose its last specifier.  `int` is written where the
specifiers end (`cps int *p;`, `IMPLICIT int *lp;` when a macro spells
`cps`), before the first declarator.  (After typecheck, which reads implicit int
as such: `cps` is then an attribute of the object, which it ignores.)

Invariant of the output: no declaration of the main file is written with
`cps` as its only type specifier.
"""
from .analysis.syntax import walk
from . import clex
from . import cps_free
from . import frontend as fe

K = fe.K

DECLS = (K.VAR_DECL, K.FIELD_DECL, K.PARM_DECL, K.TYPEDEF_DECL, K.FUNCTION_DECL)


def _declarator_start(u, n):
    """The offset where declaration n (of the main file) has its first
    declarator (after its specifiers), or None."""
    a, name = n.extent.start.offset, n.location.offset
    if not a <= name <= len(u.text):
        return None
    for t in clex.tokens(u.text[a:name]):
        if t.kind == clex.PUNCT and t.text in (b'*', b'('):
            return a + t.start
    return name


def _sites(u):
    offsets = fe.implicit_int_offsets(u)
    if not offsets:
        return []
    out = []
    for top in u.top():
        if not u.in_main_file(top) or cps_free.skipped(u, top):
            continue
        for n, _p in walk(top, skip_spawn=False, into_sizeof=True):
            # (only those whose type carries the cps tag: an old-style
            # definition's bare parameter names are implicit int too)
            if n.kind in DECLS and n.location.offset in offsets and u.in_main_file(n) and \
                    'cpc_cps' in n.type.spelling:
                at = _declarator_start(u, n)
                if at is not None:
                    out.append((n, at))
    return out


def write_int(u):
    # (declarators that share their specifiers share the first one's start)
    return [(at, at, 'int ') for at in sorted({at for (_n, at) in _sites(u)})]


def check(u):
    return [u.diag(n, '`%s` is still declared with `cps` as its only type specifier'
                   % n.spelling) for (n, _at) in _sites(u)]
