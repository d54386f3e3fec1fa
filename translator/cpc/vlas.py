"""Variable-length arrays in scope at a cps call move to the heap (after
renaming, so every local has a distinct name; before the cleanup pass,
which frees them).

A suspended thread leaves its C function, and a VLA's storage with it (a
resume point is also a label, and C forbids jumping into a VLA's scope).  So
in a cps function, a VLA whose scope holds a cps call,

    int v[n][m][4];

becomes its bounds, evaluated once where the declaration is reached, and a
pointer to heap storage whose cleanup frees it:

    __SIZE_TYPE__ cpc_vla1_0 = (n), cpc_vla1_1 = (m);
    void *cpc_vla1 __attribute__((cleanup(cpc_vla_free)))
        = cpc_vla_new(sizeof(int[cpc_vla1_0][cpc_vla1_1][4]));

and every use of `v` is an lvalue of the array's own type,
`(*(int (*)[cpc_vla1_0][cpc_vla1_1][4])cpc_vla1)`, so that indexing, decay,
`&v` and `sizeof v` compute what they computed (bounds and pointer are plain
scalars, lifted into frames like any other).  The cleanup pass then frees
the storage at every exit of the scope (the end of its block, `break`,
`continue`, `goto` out or back before the declaration, `return`); a
`cpc_done()` in the scope, which ends the thread there, frees it first.

Refused, with an error at the array: a VLA in scope at a cps call whose
bounds are not written in its declarator (a typedef or `typeof` of a VLA
type), declared outside a block (a `for` header) or in a statement
expression, with an alignment beyond malloc's, or written by a macro.

Invariant of the output: in a cps function, no local of variable-length
array type is in scope at a cps call.
"""
import bisect

from . import frontend as fe
from .analysis.func import cps_function_defs, func, var_init, vkey
from .analysis.syntax import callee_decl, is_cps_call, parents_of, walk
from .clang_types import TK_CONSTANTARRAY, TK_VARIABLEARRAY, element_type, strip_sugar, tkind
from .cursors import kids
from . import ctype
from . import rewrite as rw

K = fe.K

# malloc's alignment on the platforms CPC runs on (glibc: 16 on x86-64)
HEAP_ALIGN = 16


class HeapVla:
    """A VLA of a cps function that moves to the heap, named cpc_vlaN."""

    def __init__(self, var, block, n):
        self.var = var
        self.key = vkey(var)
        self.block = block
        self.offset = var.extent.start.offset
        self.name = 'cpc_vla%d' % n
        self.base = None        # the element type below the written bounds
        self.dims = []          # per written bound: (its expression or None, C text)

    def array_type(self):
        return ''.join('[%s]' % d for _, d in self.dims)

    def lvalue(self):
        return '(*(%s)%s)' % (ctype.declare(self.base, '(*)' + self.array_type(), keep_cps=True),
                              self.name)


def in_scope_at_calls(u, f, parents=None):
    """[(VAR_DECL, its block)] for the locals of VLA type of cps function f
    that a cps call of f is in the scope of.  `parents`: parents_of(f.body),
    made here when f has a local of VLA type and not given."""
    if not f.is_cps or f.body is None or not f.cps_calls:
        return []
    arrays = [n for n, _ in walk(f.body, skip_spawn=False)
              if n.kind == K.VAR_DECL and ctype.is_vla(n.type)]
    if not arrays:
        return []
    if parents is None:
        parents = parents_of(f.body)
    calls = sorted(c.extent.start.offset for c in f.cps_calls)
    out = []
    for n in arrays:
        stmt = parents.get(id(n))
        block = parents.get(id(stmt)) if stmt is not None else None
        e = block.extent.end.offset if block is not None else f.body.extent.end.offset
        # (a cps call in its own bounds is made before the array exists)
        i = bisect.bisect_left(calls, n.extent.end.offset)
        if i < len(calls) and calls[i] < e:
            out.append((n, block))
    return out


def _bracket_groups(u, name_end):
    """[(start, end)] of the `[...]` suffixes written right after a
    declarator's identifier: the array levels of the object itself,
    outermost first (those after a closing parenthesis belong to what a
    pointer points to)."""
    text = u.text
    out = []
    i = rw.skip_space(text, name_end)
    while text[i:i + 1] == b'[':
        end = rw.group_end(text, i)
        if end is None:
            break
        out.append((i, end))
        i = rw.skip_space(text, end)
    return out


def describe(u, f, var, block, n):
    """The HeapVla of `var`, or an error at it saying why it cannot move."""
    name = var.spelling

    def refuse(why):
        raise fe.Diags([u.diag(var, 'variable-length array `%s` is in scope at a cps call, '
                               'so it must move to the heap, but %s' % (name, why))])
    if block is None or block.kind != K.COMPOUND_STMT:
        refuse('it is not declared in a block (a `for` header); declare it before the loop')
    gp = parents_of(f.body).get(id(block))
    if gp is not None and gp.kind == K.StmtExpr:
        refuse('it is declared in a statement expression')
    if u.written(var) is None:
        refuse('its declaration comes out of a macro; write it in the function')
    if any(a.kind == K.ALIGNED_ATTR for a in kids(var)):
        refuse('its declaration asks for an alignment, which the heap storage does not '
               'follow; align its element type instead, up to %d' % HEAP_ALIGN)
    h = HeapVla(var, block, n)
    at = var.location.offset
    if u.text[at:at + len(name)] != name.encode():
        refuse('its name is not written where Clang puts it')
    groups = _bracket_groups(u, at + len(name))
    exprs = [x for x in kids(var) if x.kind.is_expression()]
    t = var.type
    for (a, b) in groups:
        tu, _ = strip_sugar(t)
        k = tkind(tu)
        inside = [x for x in exprs if a < x.extent.start.offset and x.extent.end.offset < b]
        if k == TK_CONSTANTARRAY:
            h.dims.append((None, str(tu.element_count)))
        elif k == TK_VARIABLEARRAY and len(inside) == 1:
            h.dims.append((inside[0], '%s_%d' % (h.name, len(h.dims))))
        else:
            refuse('its bounds cannot be read from its declarator')
        t = element_type(tu)
    if not groups or ctype.is_variably_modified(t):
        refuse('its bounds are not all written in its declarator (its type comes from a '
               'typedef or `typeof`); write them there')
    if t.get_align() > HEAP_ALIGN:
        refuse('its elements are aligned to %d bytes, beyond the heap\'s %d'
               % (t.get_align(), HEAP_ALIGN))
    try:
        ctype.declare(t, '(*)[1]', keep_cps=True)
    except ctype.Unnameable:
        refuse('its element type cannot be named here')
    h.base = t
    return h


def move_to_heap(u):
    edits = []
    errors = []         # (every array refused, in one run)
    for c in cps_function_defs(u):
        f = func(u, c)
        found = in_scope_at_calls(u, f)
        if not found:
            continue
        parents = parents_of(f.body)
        vlas = []
        for i, (v, b) in enumerate(found):
            try:
                vlas.append(describe(u, f, v, b, i + 1))
            except fe.Diags as e:
                errors += e.diags
        if vlas and not errors:
            edits.extend(move_function(u, f, vlas, parents))
    if errors:
        raise fe.Diags(errors)
    return edits


def _sub_text(u, f, c, keyed, a=None, b=None):
    """The text of c (or of u.text[a:b]) with the uses of the moved arrays
    rewritten."""
    if a is None:
        a, b = c.extent.start.offset, c.extent.end.offset
    return rw.rebuild(u, a, b, rw.outermost(_uses(u, f, c, keyed)))


def _uses(u, f, c, keyed):
    subs = []
    for n, _ in walk(c, skip_spawn=False, into_sizeof=True):
        if n.kind == K.DECL_REF_EXPR:
            v = f.var_of(n)
            if v is not None and v.key in keyed:
                r = u.written(n)
                if r is None:
                    raise fe.Diags([u.diag(n, '`%s`, a variable-length array moved to the '
                                           'heap, is used in a macro expansion here'
                                           % v.name)])
                subs.append((r[0], r[1], keyed[v.key].lvalue()))
    return subs


def _declaration(u, f, stmt, keyed):
    """The text replacing declaration statement `stmt`, which declares one
    or more of the moved arrays."""
    out = []
    vars_ = kids(stmt)
    single = len(vars_) == 1
    for v in vars_:
        h = keyed.get(vkey(v)) if v.kind == K.VAR_DECL else None
        if h is not None:
            bounds = ['%s = (%s)' % (d, _sub_text(u, f, e, keyed)) for e, d in h.dims if e]
            if bounds:
                out.append('__SIZE_TYPE__ %s;' % ', '.join(bounds))
            out.append('void *%s __attribute__((cleanup(cpc_vla_free))) = cpc_vla_new(sizeof(%s));'
                       % (h.name, ctype.declare(h.base, h.array_type(), keep_cps=True)))
        elif v.kind == K.FUNCTION_DECL:
            out.append(ctype.declare(v.type, v.spelling, keep_cps=True) + ';')
        elif v.kind != K.VAR_DECL:
            raise fe.Diags([u.diag(v, 'a declaration of a variable-length array in scope at '
                                   'a cps call also declares a type; declare the type '
                                   'separately')])
        elif single:
            out.append(_sub_text(u, f, stmt, keyed, rw.start(stmt), rw.full_end(u, stmt)))
        else:
            try:
                d = ctype.declare(v.type, v.spelling, keep_cps=True)
            except ctype.Unnameable:
                raise fe.Diags([u.diag(v, 'cannot split this declaration of `%s`, which also '
                                       'declares a variable-length array in scope at a cps '
                                       'call; declare it separately' % v.spelling)])
            if v.storage_class == fe.ci.StorageClass.REGISTER:
                d = 'register ' + d
            init = var_init(u, v)
            if init is not None:
                d += ' = ' + _sub_text(u, f, init, keyed)
            out.append(d + ';')
    return ' '.join(out)


def _done_calls(u, f, parents):
    """The `cpc_done();` statements of f's body."""
    out = []
    for n, p in walk(f.body, skip_spawn=False):
        if n.kind == K.CALL_EXPR and is_cps_call(n) and p is not None and \
                not p.kind.is_expression():
            d = callee_decl(n)
            if d is not None and d.spelling == 'cpc_done':
                out.append(n)
    return out


def move_function(u, f, vlas, parents):
    keyed = {h.key: h for h in vlas}
    subs = []
    for n, p in walk(f.body, skip_spawn=False, into_sizeof=True):
        if n.kind == K.DECL_STMT and any(x.kind == K.VAR_DECL and vkey(x) in keyed
                                         for x in kids(n)):
            a, b = rw.start(n), rw.full_end(u, n)
            subs.append((a, b, rw.fix_lines(u, a, b, _declaration(u, f, n, keyed))))
    # the thread ends at cpc_done(): the arrays in scope are freed first,
    # the last declared first
    for call in _done_calls(u, f, parents):
        at = call.extent.start.offset
        live = [h for h in vlas if h.offset < at < h.block.extent.end.offset]
        if live:
            frees = ' '.join('cpc_vla_free(&%s);' % h.name
                             for h in sorted(live, key=lambda h: -h.offset))
            a, b = rw.start(call), rw.full_end(u, call)
            subs.append((a, b, '{ %s %s }' % (frees, _sub_text(u, f, call, keyed, a, b))))
    subs += _uses(u, f, f.body, keyed)
    return rw.outermost(subs)


def check(u):
    """The invariant: no local of VLA type of a cps function is in scope at
    a cps call."""
    out = []
    for c in cps_function_defs(u):
        f = func(u, c)
        if f.body is None:
            continue
        for v, _ in in_scope_at_calls(u, f):
            out.append(u.diag(v, 'the variable-length array `%s` of cps function `%s` is in '
                              'scope at a cps call' % (v.spelling, f.name)))
    return out
