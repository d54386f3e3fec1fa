"""Boxing: extruded variables move to a heap environment.

Invariant of the output (on normalised input): in a cps function, no local
variable whose address may be retained (address taken other than as an
argument of a function known not to keep it, or an array decayed likewise)
is in scope at a cps call, and no local array is live across a cps call.
Such variables live instead in one environment per invocation,
`struct f__env *cpc_env`, allocated at entry (parameters copied in) and
freed on every way out (each `return`, the end of the body, and before
`cpc_done()`); every use of `x` reads `cpc_env->x`.  A function with an
environment has no tail calls: `return g(...)` becomes a call, a free and a
return.  With --dataflow=environments (eCPC: "Generating events with
style", sections 4.3 and 5, docs/references.md),
every variable live across a cps call is boxed too, so that frames hold only
the environment pointer.
"""
from . import frontend as fe
from .analysis.func import cps_bodies, leading_label_declarations, var_init, vkey
from .analysis.syntax import callee_decl, is_cps_call, node_id, walk
from .cursors import kids
from . import ctype
from . import rewrite as rw
from .analysis import retain

K = fe.K

def box(u, environments=False):
    names = retain.pragma_no_retain(u.text)
    edits = []
    errors = fe.Collected()          # (every function's, not the first one's)
    for f in cps_bodies(u):
        with errors.part():
            vs = retain.boxed_vars(u, f, names, environments)
            lits = retain.boxed_literals(u, f)
            if vs or lits:
                edits.extend(box_function(u, f, vs, lits))
    errors.raise_any()
    return edits


class Literals:
    """The boxed compound literals of one function: literal i lives in the
    environment field `__cpc_lit_i`; each evaluation copies the literal
    there (C initialises it anew each time) and designates that field."""

    def __init__(self, u, lits):
        self.field = {node_id(n): '__cpc_lit_%d' % i for i, n in enumerate(lits, 1)}
        self.lits = lits

    def fields(self, u):
        out = []
        for n in self.lits:
            try:
                out.append(ctype.declare_field(n.type, self.field[node_id(n)],
                                               keep_cps=True) + ';')
            except ctype.Unnameable:
                raise fe.Diags([u.diag(n, 'the type of this compound literal cannot be '
                                       'named at file scope, but it must go to the heap '
                                       '(its address is used across a cps call)')])
        return out

    def sub(self, u, n, keys, f):
        """The edit replacing literal n, or None when n is not boxed."""
        name = self.field.get(node_id(n))
        if name is None:
            return None
        r = u.written(n)
        if r is None:
            raise fe.Diags([u.diag(n, 'this compound literal comes out of a macro expansion '
                                   'and cannot be moved to the heap')])
        inner = sub_text(u, n, keys, f, lits=self, outer=n)
        ptr = ctype.declare_ptr_to(n.type, '', keep_cps=True)
        return (r[0], r[1], '(*(%s)__builtin_memcpy(&cpc_env->%s, &%s, sizeof cpc_env->%s))' % (
            ptr, name, inner, name))


ALIGN_KEYWORDS = (b'_Alignas', b'alignas', b'aligned', b'__aligned__')


def _balanced(text, i):
    """The offset after the parenthesised group that starts at text[i]
    (spaces skipped), or None."""
    while i < len(text) and text[i:i + 1] in (b' ', b'\t', b'\n'):
        i += 1
    return rw.group_end(text, i) if text[i:i + 1] == b'(' else None


def alignment_specifiers(u, var):
    """The alignment the declaration of `var` asks for (`_Alignas(64)`,
    `__attribute__((aligned(32)))`), as text to put on the heap copy's
    field: it belongs to the declaration, not to the type."""
    out = []
    for a in kids(var):
        if a.kind != K.ALIGNED_ATTR:
            continue
        where = u.written(a)
        if where is None:
            raise fe.Diags([u.diag(var, 'the alignment of `%s` comes from a macro; it must go '
                                   'to the heap (its address is used across a cps call): '
                                   'write _Alignas in the declaration' % var.spelling)])
        start = where[0]
        word = next((w for w in ALIGN_KEYWORDS if u.text.startswith(w, start)), None)
        end = _balanced(u.text, start + len(word)) if word is not None else None
        if word is None or (end is None and word in (b'_Alignas', b'alignas')):
            raise fe.Diags([u.diag(var, 'cannot read the alignment of `%s`' % var.spelling)])
        arg = u.text[start + len(word):end].decode('utf-8', 'surrogateescape') \
            if end is not None else ''
        if word in (b'_Alignas', b'alignas'):
            out.append('_Alignas%s' % arg)
        else:
            out.append('__attribute__((aligned%s))' % arg)
    return ' '.join(out)


# malloc's alignment on the platforms CPC runs on (glibc: 16 on x86-64).
MALLOC_ALIGN = 16


def _env_alloc(env, over_aligned, fname):
    """The allocation of a function's environment: malloc, or aligned_alloc
    (the runtime header's cpc__aligned_alloc) for an environment that holds
    an over-aligned variable; then the check that it succeeded (out of
    memory exits with a message naming the function, docs/abi.md)."""
    check = (' if (__builtin_expect(cpc_env == 0, 0)) '
             'cpc_out_of_memory("the environment of %s", sizeof *cpc_env);' % fname)
    if not over_aligned:
        return ('struct %s *cpc_env = (struct %s *)__builtin_malloc(sizeof *cpc_env);'
                % (env, env)) + check
    return ('struct %s *cpc_env = (struct %s *)(_Alignof(struct %s) > %d ? '
            'cpc__aligned_alloc(_Alignof(struct %s), sizeof(struct %s)) : '
            '__builtin_malloc(sizeof *cpc_env));' % (env, env, env, MALLOC_ALIGN, env, env)) + check


def box_function(u, f, vs, lits=()):
    keys = {v.key for v in vs}
    lits = Literals(u, lits)
    env = '%s__env' % f.name
    fields = []
    over_aligned = False
    for v in vs:
        if ctype.is_vla(v.type):
            raise fe.Diags([u.diag(v.cursor, 'variable-length array `%s` is live across a '
                                   'cps call' % v.name)])
        try:
            align = alignment_specifiers(u, v.cursor)
            fields.append((align + ' ' if align else '') +
                          ctype.declare_field(v.type, v.name, keep_cps=True) + ';')
            over_aligned = over_aligned or bool(align) or v.type.get_align() > MALLOC_ALIGN
        except ctype.Unnameable:
            raise fe.Diags([u.diag(v.cursor, 'the type of `%s` cannot be named at file '
                                   'scope, but it must go to the heap (its address is '
                                   'taken across a cps call)' % v.name)])
    fields += lits.fields(u)
    edits = []
    a = f.c.extent.start.offset
    edits.append((a, a, 'struct %s { %s };\n%s' % (env, ' '.join(fields), rw.resync(u, a))))
    body = f.body
    # after the body's `{`, its GNU local label declarations and its STDC pragmas
    labels = leading_label_declarations(u, body)
    b0 = rw.full_end(u, labels[-1]) if labels else body.extent.start.offset + 1
    b0 = rw.after_stdc_pragmas(u, b0)
    init = [_env_alloc(env, over_aligned, f.name)]
    for v in vs:
        if v.is_param:
            init.append(ctype.copy('cpc_env->' + v.name, v.name, v.type))
    ind = rw.indent_of(u, rw.start(body)) + '    '
    # (on the line of the body's `{`, not on the line after it; one line, so
    # that the copies of the parameters do not run on the lines after it)
    edits.append((b0, b0, '\n' + rw.line_directive(u, body.extent.start.offset) + '\n' +
                  ind + ' '.join(init) + '\n' + rw.resync(u, b0)))
    free = '__builtin_free(cpc_env);'
    rettype = f.c.type.get_result()
    void = ctype.is_void(rettype)
    subs = []
    # references and declarations
    handled_decls = set()
    for n, p in walk(body, skip_spawn=False, into_sizeof=True):
        k = n.kind
        if k == K.DECL_REF_EXPR:
            v = f.var_of(n)
            if v is not None and v.key in keys:
                subs.append(ref_sub(u, n, 'cpc_env->' + v.name))
        elif k == K.COMPOUND_LITERAL_EXPR:
            e = lits.sub(u, n, keys, f)
            if e is not None:
                subs.append(e)
        elif k == K.DECL_STMT:
            vars_ = kids(n)
            if any(x.kind == K.VAR_DECL and vkey(x) in keys for x in vars_):
                subs.append((rw.start(n), rw.full_end(u, n), decl_text(u, f, n, keys, lits)))
        elif k == K.RETURN_STMT:
            ch = kids(n)
            if not ch:
                subs.append((rw.start(n), rw.full_end(u, n), '{ %s return; }' % free))
            else:
                e = ch[0]
                et = sub_text(u, e, keys, f, lits=lits)
                if void:
                    subs.append((rw.start(n), rw.full_end(u, n),
                                 '{ %s; %s return; }' % (et, free)))
                else:
                    d = ctype.declare_rvalue(rettype, 'cpc_rv', keep_cps=True)
                    subs.append((rw.start(n), rw.full_end(u, n),
                                 '{ %s = %s; %s return cpc_rv; }' % (d, et, free)))
        elif k == K.CALL_EXPR and is_cps_call(n) and p is not None and \
                not p.kind.is_expression():
            d = callee_decl(n)
            if d is not None and d.spelling == 'cpc_done':
                # (the pointer is cleared: the C compiler does not know that
                # cpc_done() never comes back, and would see the frame save
                # of the freed pointer, and the free at the body's end)
                subs.append((rw.start(n), rw.full_end(u, n),
                             '{ %s cpc_env = 0; cpc_done(); }' % free))
    # statement-level replacements contain the references they cover
    subs = rw.outermost(subs)
    for s in subs:
        edits.append(s)
    e = body.extent.end.offset - 1
    edits.append((e, e, ' ' + free + ' '))
    return edits


def ref_sub(u, n, text):
    """The edit replacing reference n (written in the file, or in a macro
    argument: the macros pass expanded the functions where it is not) by text."""
    r = u.written(n)
    if r is None:
        raise fe.Diags([u.diag(n, '`%s` comes out of a macro expansion and cannot be '
                               'rewritten' % n.spelling)])
    return (r[0], r[1], text)


def sub_text(u, c, keys, f, a=None, b=None, lits=None, outer=None):
    """Text of c with boxed references (and boxed literals other than
    `outer`) rewritten."""
    subs = []
    for n, p in walk(c, skip_spawn=False, into_sizeof=True):
        if n.kind == K.DECL_REF_EXPR:
            v = f.var_of(n)
            if v is not None and v.key in keys:
                subs.append(ref_sub(u, n, 'cpc_env->' + v.name))
        elif n.kind == K.COMPOUND_LITERAL_EXPR and lits is not None and n is not outer:
            e = lits.sub(u, n, keys, f)
            if e is not None:
                subs.append(e)
    if a is None:
        a, b = c.extent.start.offset, c.extent.end.offset
    return rw.rebuild(u, a, b, rw.outermost(subs))


def decl_text(u, f, n, keys, lits=None, prefix='cpc_env->', text=None):
    """Declaration statement n written again: the variables of `keys` are
    not declared, their initialisers assigned to where they live
    (`prefix` + name: the environment, or the frame for the emitter's
    frame-resident variables); `text(c, a, b)` is the rewritten text of
    node c (of its range a-b when given)."""
    if text is None:
        def text(c, a=None, b=None):
            return sub_text(u, c, keys, f, a, b, lits=lits)
    out = []
    vars_ = kids(n)
    single = len(vars_) == 1
    for v in vars_:
        if v.kind == K.FUNCTION_DECL and not single:
            # (its extent starts where the declaration does: `double t, f();`)
            out.append(ctype.declare(v.type, v.spelling, keep_cps=True) + ';')
            continue
        if v.kind != K.VAR_DECL:
            out.append(u.src(v) + ';')
            continue
        init = var_init(u, v)
        key = vkey(v)
        if key in keys:
            if init is None:
                out.append(';')
                continue
            it = text(init)
            place = prefix + v.spelling
            if init.kind == K.INIT_LIST_EXPR or ctype.is_array(v.type):
                try:
                    tn = ctype.declare(v.type, '', strip_const=True, keep_cps=True)
                except ctype.Unnameable:
                    raise fe.Diags([u.diag(v, 'cannot box `%s`' % v.spelling)])
                out.append('__builtin_memcpy(&%s, &(%s)%s, sizeof %s);' % (
                    place, tn, it if init.kind == K.INIT_LIST_EXPR else '{' + it + '}',
                    place))
            elif ctype.has_const_member(v.type):
                # not assignable: initialise a copy, then move it in
                out.append('{ %s = %s; __builtin_memcpy(&%s, &cpc_b, sizeof cpc_b); }' % (
                    ctype.declare(v.type, 'cpc_b', strip_const=True, keep_cps=True), it, place))
            else:
                out.append('%s = %s;' % (place, it))
        else:
            if single:
                out.append(text(n, rw.start(n), rw.full_end(u, n)))
            else:
                d = ctype.declare(v.type, v.spelling, keep_cps=True)
                if init is not None:
                    d += ' = ' + text(init)
                out.append(d + ';')
    return ' '.join(out)


def check(u):
    """The invariant of box on its output: in a cps function no local whose
    address may be retained is in scope at a cps call, and no local array is
    live across one (what lifting by copy relies on)."""
    names = retain.pragma_no_retain(u.text)
    out = []
    for f in cps_bodies(u):
        for v in retain.boxed_vars(u, f, names):
            out.append(u.diag(v.cursor, '`%s` of cps function `%s` is in scope at a cps call '
                              'but its address may be retained (or it is an array live '
                              'across the call)' % (v.name, f.name)))
        for n in retain.boxed_literals(u, f):
            out.append(u.diag(n, 'a compound literal of cps function `%s` whose address is '
                              'used in a block with a cps call is not in the environment'
                              % f.name))
    return out
