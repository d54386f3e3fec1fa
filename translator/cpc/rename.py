"""Locals renamed apart: in a cps function, a local variable or parameter
that shares its name with an earlier one (or is spelt like the
translation's own locals, `cpc_...`) is renamed `name__N`.

Invariant of the output: in a cps function no two local variables or
parameters share a name, so that a variable can be restored by name
wherever a resume point lies.
"""
import re

from . import frontend as fe
from .analysis.func import func
from .analysis.syntax import walk

K = fe.K

# The names of the translation's own locals and parameters in a cps
# function (the continuation cpc_k, the frame cpc_f, temporaries cpc_t1,
# ...): a user's local spelt like one is renamed too.
GENERATED_LOCAL_RE = re.compile(r'cpc_\w+$')
RENAMED_RE = re.compile(r'__\d+$')


def rename_shadows(u):
    edits = []
    for c in u.function_defs():
        f = func(u, c)
        if not f.is_cps or f.body is None:
            continue
        seen = {}
        renames = {}
        counter = {}
        for p in f.params:
            if not GENERATED_LOCAL_RE.match(p.spelling):
                seen[p.spelling] = 1
        for v in sorted(f.vars.values(), key=lambda v: v.cursor.location.offset):
            if v.is_param and not GENERATED_LOCAL_RE.match(v.name):
                continue
            if v.name in seen or GENERATED_LOCAL_RE.match(v.name):
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
        for n, p in walk(f.body, skip_spawn=False, into_sizeof=True):
            if n.kind == K.DECL_REF_EXPR:
                v = f.var_of(n)
                if v is not None and v.key in renames:
                    r = u.written(n)
                    if r is None:
                        raise fe.Diags([u.diag(n, 'cannot rename `%s` here (it comes out '
                                               'of a macro expansion)' % v.name)])
                    edits.append((r[0], r[1], renames[v.key]))
    # a macro argument used twice expands to two references written once
    return sorted(set(edits))


def check_renamed(u):
    """The invariant of rename_shadows on its output: in a cps function no
    two locals (parameters included) share a name, and none is spelt like
    the translation's own (`cpc_...`, unless renamed: `cpc_k__2`)."""
    out = []
    for c in u.function_defs():
        f = func(u, c)
        if not f.is_cps or f.body is None:
            continue
        seen = set()
        for v in sorted(f.vars.values(), key=lambda v: (not v.is_param, v.cursor.location.offset)):
            if v.name in seen:
                out.append(u.diag(v.cursor, 'two locals of cps function `%s` are named `%s`'
                                  % (f.name, v.name)))
            elif GENERATED_LOCAL_RE.match(v.name) and not RENAMED_RE.search(v.name):
                out.append(u.diag(v.cursor, 'a local of cps function `%s` is named `%s`, '
                                  'like the translation\'s own' % (f.name, v.name)))
            seen.add(v.name)
    return out
