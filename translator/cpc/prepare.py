"""Preparation (before splitting): macros and names.

Invariant of the output: in every function definition of the main file,
every node the later passes rewrite (cps calls, calls to cpc_need_cont
functions, spawns, and in cps functions `return`, `continue` and local
declarations) is written in the file, not produced by a macro expansion
(functions where one is are replaced by Clang's macro-expanded rendering);
and in a cps function no two local variables or parameters share a name
(later ones are renamed `name__N`), so that a variable can be restored by
name wherever a resume point lies.
"""
from . import frontend as fe
from . import analysis as an
from . import rewrite as rw

K = fe.K

STMT_KINDS_IN_CPS = None


def function_defs(u):
    for c in u.tu.cursor.get_children():
        if c.kind == K.FUNCTION_DECL and c.is_definition() and u.in_main_file(c):
            yield c


def needs_expansion(u, f):
    if f.body is None:
        return False
    if not u.macro_ranges():
        return False
    a, b = f.body.extent.start.offset, f.body.extent.end.offset
    if not any(s >= a and t <= b for (s, t) in u.macro_ranges()):
        return False
    for c in f.cps_calls + f.need_cont_calls + f.spawns:
        if u.in_macro(c) is not None:
            return True
    if f.is_cps:
        for n, p in an.walk(f.body):
            if n.kind in (K.RETURN_STMT, K.CONTINUE_STMT, K.VAR_DECL,
                          K.LABEL_STMT, K.GOTO_STMT, K.BREAK_STMT) \
                    and u.in_macro(n) is not None:
                return True
    return False


def expand_macros(u):
    """Return [(a, b, text)] edits replacing functions that need it by
    their macro-expanded rendering."""
    edits = []
    for c in function_defs(u):
        f = an.Func(u, c)
        if needs_expansion(u, f):
            a, b = c.extent.start.offset, c.extent.end.offset
            txt = fe.pretty(c)
            # the rendering spells the cps tag as an attribute Clang reads back
            new = '\n' + rw.line_directive(u, a) + '\n' + txt + '\n' + \
                rw.line_directive(u, b) + '\n' + ' ' * rw.col_of(u, b)
            edits.append((a, b, new))
    return edits


def rename_shadows(u):
    edits = []
    for c in function_defs(u):
        f = an.Func(u, c)
        if not f.is_cps or f.body is None:
            continue
        seen = {}
        renames = {}
        counter = {}
        for p in f.params:
            seen[p.spelling] = 1
        for v in sorted(f.vars.values(), key=lambda v: v.cursor.location.offset):
            if v.is_param:
                continue
            if v.name in seen:
                n = counter.get(v.name, 1) + 1
                new = '%s__%d' % (v.name, n)
                while new in seen:
                    n += 1
                    new = '%s__%d' % (v.name, n)
                counter[v.name] = n
                renames[v.key] = new
                seen[new] = 1
            else:
                seen[v.name] = 1
        if not renames:
            continue
        for key, new in renames.items():
            v = f.vars[key]
            off = v.cursor.location.offset
            if u.text[off:off + len(v.name)] == v.name.encode():
                edits.append((off, off + len(v.name), new))
        for n, p in an.walk(f.body, skip_spawn=False, into_sizeof=True):
            if n.kind == K.DECL_REF_EXPR:
                v = f.var_of(n)
                if v is not None and v.key in renames:
                    off = n.extent.start.offset
                    if u.text[off:off + len(v.name)] == v.name.encode():
                        edits.append((off, off + len(v.name), renames[v.key]))
    return edits
