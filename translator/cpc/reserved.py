"""Reserved names: the translation of a function F declares names of the
form `F__suffix` at file scope (its entry `F__cps`, `F__body`, `F__bounce`,
`F__defer`, `F__deferral`, `F__resume_N`, `F__dispatch`, `F__dispatch_K`, the structs
`F__frame`, `F__args`, `F__env`, `F__reserve`, the spawned statements `F__spawn_N`, its
hoisted struct types `F__tag_N_name`, `F__need_cont` for a cpc_need_cont function declared
in a header, ...) and labels
`F__resumed_N` in its body.  A name of the user's spelt like one of them
would collide with it in the generated C, so it is renamed `NAME__user`
everywhere: tags, typedefs, enumerators, labels, locals and names with
internal linkage are the translation unit's own.  A name with external
linkage cannot change (other files use it): that is an error at its
declaration, naming the function it belongs to.  (The translation's locals,
`cpc_k`, `cpc_f`, ..., never collide: the rename pass renames a user's
local spelt like one.)

Invariant of the output: no name of the main file is spelt like one the
translation generates.
"""
import re

from . import cps_free
from . import frontend as fe
from .clang_types import is_cps_function_type
from .analysis.syntax import walk

K = fe.K

# The suffixes of generated names (the single list: messages.py and
# nested.py derive theirs from it; the gdb extension, standalone, keeps a
# copy in tools/gdb/cpcgdb/names.py).  A cps function F's code and types:
# F__cps, F__body, ...
CODE_SUFFIXES = ['cps', 'body', 'bounce', 'defer', 'deferral', r'resume_\d+', r'resumed_\d+',
                 'dispatch', r'dispatch_\d+', 'frame', 'args', 'env', 'reserve']
# its tables for gdb (the lines of its resume points, the variables dead
# there, and the entries of that table shared by several resume points)
TABLE_SUFFIXES = ['lines', 'dead', r'dead_\d+']
# Any function F's: spawned statements and calls become functions
# F__spawn_N (whose own names follow: F__spawn_N__cps, ...), hoisted struct
# types F__tag_N_name, the alias F__need_cont of a cpc_need_cont function
ANY_SUFFIXES = [r'spawn_\d+', r'tag_\d+_\w*', 'need_cont']
# the thunk that starts a spawned call F__spawn_N, and its arguments
THUNK_SUFFIXES = ['start', 'start_args']

CPS_SUFFIX_RE = re.compile(r'__(?:%s)$' % '|'.join(CODE_SUFFIXES + TABLE_SUFFIXES))
# (spawn_N and tag_N_ anywhere: the names of F__spawn_N and F__tag_N_name follow them)
ANY_SUFFIX_RE = re.compile(r'__(?:spawn_\d+|tag_\d+_|need_cont$)')

DECL_KINDS = (K.VAR_DECL, K.FUNCTION_DECL, K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL,
              K.TYPEDEF_DECL, K.ENUM_CONSTANT_DECL, K.LABEL_STMT, K.PARM_DECL)


def _owner(name, cps_functions, functions):
    """The function whose translation generates `name`, or None."""
    m = CPS_SUFFIX_RE.search(name)
    if m is not None and name[:m.start()] in cps_functions:
        return name[:m.start()]
    m = ANY_SUFFIX_RE.search(name)
    if m is not None and name[:m.start()] in functions:
        return name[:m.start()]
    return None


def _collisions(u):
    """(declaration, owner) of every name of the main file spelt like one
    the translation generates."""
    suspects = []
    for top in u.main_top():
        # (a function without cps code names nothing spelt like a generated
        # name: cps_free.py)
        if cps_free.skipped(u, top):
            continue
        for n, _ in walk(top, skip_spawn=False, into_sizeof=True):
            if n.kind in DECL_KINDS and '__' in n.spelling and \
                    (CPS_SUFFIX_RE.search(n.spelling) or ANY_SUFFIX_RE.search(n.spelling)):
                suspects.append(n)
    if not suspects:
        return []       # (the functions of every header are not looked at)
    functions, cps_functions = set(), set()
    for c in u.top():
        if c.kind == K.FUNCTION_DECL:
            functions.add(c.spelling)
            if is_cps_function_type(c.type):
                cps_functions.add(c.spelling)
    found = {}
    for n in suspects:
        owner = _owner(n.spelling, cps_functions, functions)
        if owner is not None:
            found.setdefault(n.canonical.hash, (n, owner))
    return list(found.values())


def _renamable(d):
    """d's name is the translation unit's own: a tag, a typedef, an
    enumerator, a label, a local, or something with internal linkage."""
    if d.kind in (K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL, K.TYPEDEF_DECL,
                  K.ENUM_CONSTANT_DECL, K.LABEL_STMT, K.PARM_DECL):
        return True
    return d.linkage in (fe.ci.LinkageKind.INTERNAL, fe.ci.LinkageKind.NO_LINKAGE)


def rename(u):
    """Edits renaming the program's names that collide (to NAME__user);
    an error for a name with external linkage, which cannot change."""
    collisions = _collisions(u)
    if not collisions:
        return []
    errors = [u.diag(d, '`%s` is a name that the translation of `%s` uses; it has external '
                     'linkage and cannot be renamed: rename it' % (d.spelling, owner))
              for d, owner in collisions if not _renamable(d)]
    if errors:
        raise fe.Diags(errors)
    wanted = {d.canonical.hash: d.spelling for d, _ in collisions}
    edits = set()
    for top in u.main_top():
        if cps_free.skipped(u, top):
            continue
        for n, _ in walk(top, skip_spawn=False, into_sizeof=True):
            if n.kind in DECL_KINDS:
                target = n
            else:
                target = n.referenced if n.kind in (K.DECL_REF_EXPR, K.TYPE_REF, K.LABEL_REF,
                                                    K.MEMBER_REF_EXPR) else None
            if target is None or target.canonical.hash not in wanted:
                continue
            name = wanted[target.canonical.hash].encode()
            if n.kind in DECL_KINDS:
                off = n.location.offset
                if u.text[off:off + len(name)] != name or not u.in_main_file(n):
                    continue
                edits.add((off, off + len(name), name.decode() + '__user'))
                continue
            r = u.written(n)
            if r is None:
                raise fe.Diags([u.diag(n, 'cannot rename `%s` here (it comes out of a macro '
                                       'expansion)' % name.decode())])
            at = u.text.rfind(name, r[0], r[1])
            if at >= 0:
                edits.add((at, at + len(name), name.decode() + '__user'))
    return sorted(edits)


def check(u):
    return [u.diag(d, '`%s` is still a name that the translation of `%s` uses'
                   % (d.spelling, owner)) for d, owner in _collisions(u)]
