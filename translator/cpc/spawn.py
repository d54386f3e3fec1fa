"""Spawn outlining (before normalisation): `cpc_spawn STATEMENT` in any
function becomes a spawn of a call to a generated cps function.

Invariant of the output: every `cpc_spawn S` of the main file is
`cpc_spawn g(a1, ..., an);` where g is a cps function (or a cps function
pointer) and each ai is "spawn-pure": it reads only constants and local
variables of the enclosing function (no call, no assignment, no memory read
through a pointer, no global), so evaluating the arguments at spawn time in
the spawner is the same as evaluating them at the start of the new thread.
Any other statement S of function F (the n-th spawn of F) becomes the
generated function, inserted before F,

    static cps void F__spawn_n(T1 x1, ..., Tk xk) { S }

whose parameters are the free local variables of S whose value S may read
before writing them, copied by value at spawn time (the others are locals
of the new function: copying them would read them uninitialised), and
which declares again the typedefs and enumerations of F that S uses (a
typedef as the type it names, an enumeration as written) (SPEC 1.2: the
spawned statement behaves like a call to an anonymous cps function): a variable whose address is taken inside S is then a parameter of
the new function, with its own box if it needs one.  A free local array is
copied through a wrapper struct `struct F__spawn_n__x { T v[N]; }`; a free
`static` local is passed by address.  `return e;` in S evaluates e and ends
the thread.  `goto`, `break`, `continue` or a `case` label binding outside S
is an error.  Nested spawns move with their enclosing statement and are
outlined in the next round (`F__spawn_n__spawn_m`).
"""
import re

from . import cps_free
from . import frontend as fe
from .clang_types import TK_POINTER, strip_sugar, tkind
from .cursors import ASSIGN_OPS, INC_DEC_OPS, UO, binop, kids, unop
from .analysis.gnu_attributes import code_attributes_text
from .analysis.dataflow import read_before_written
from .analysis.func import func, is_local_var, vkey
from .analysis.syntax import (
    args_of, callee_decl, callee_of, is_cps_call, spawn_body, strip, strip_casts, walk)
from .analysis import jumps
from . import ctype
from . import rewrite as rw

K = fe.K

GENERATED_RE = re.compile(r'__spawn_\d+$')


def is_pure(f, e):
    """Evaluating e at spawn time equals evaluating it later in the thread
    (given that free locals are copied at spawn time)."""
    for n, p in walk(e, skip_spawn=False):
        k = n.kind
        if k in (K.INTEGER_LITERAL, K.FLOATING_LITERAL, K.CHARACTER_LITERAL,
                 K.STRING_LITERAL, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR,
                 K.CONDITIONAL_OPERATOR, K.TYPE_REF):
            continue
        if k == K.CXX_UNARY_EXPR:          # sizeof: its operand is not evaluated
            continue
        if k == K.UNEXPOSED_EXPR:
            if len(kids(n)) == 1:
                continue
            return False
        if k == K.DECL_REF_EXPR:
            d = n.referenced
            if d is None:
                return False
            if d.kind in (K.ENUM_CONSTANT_DECL, K.FUNCTION_DECL):
                continue
            if is_local_var(d, f.c) and not ctype.is_array(d.type):
                continue
            return False
        if k == K.BINARY_OPERATOR:
            if binop(n) in ASSIGN_OPS:
                return False
            continue
        if k == K.UNARY_OPERATOR:
            if unop(n) in INC_DEC_OPS + (UO['AddrOf'], UO['Deref']):
                return False
            continue
        if k == K.MEMBER_REF_EXPR:
            ch = kids(n)
            if not ch or tkind(strip_sugar(ch[0].type)[0]) == TK_POINTER:
                return False
            continue
        return False
    return True


def fast_path(f, body):
    """True when `cpc_spawn body` needs no outlining."""
    call = strip_casts(body)
    if call.kind != K.CALL_EXPR or not is_cps_call(call):
        return False
    callee = strip(callee_of(call))
    d = callee_decl(call)
    if d is not None and GENERATED_RE.search(d.spelling):
        return True
    if d is None and not is_pure(f, callee):
        return False
    return all(is_pure(f, a) for a in args_of(call))


class Outliner:
    def __init__(self, u):
        self.u = u
        self.edits = []
        self.errs = []

    def run(self):
        for c in cps_free.code_defs(self.u):
            f = func(self.u, c)
            if not f.spawns:
                continue
            pre = []
            for i, sp in enumerate(f.spawns, 1):
                body = spawn_body(sp)
                if fast_path(f, body):
                    continue
                self.outline(f, sp, body, '%s__spawn_%d' % (f.name, i), pre)
            if pre:
                a = c.extent.start.offset
                self.edits.append((a, a, '\n'.join(pre) + '\n' + rw.resync(self.u, a)))
        if self.errs:
            raise fe.Diags(self.errs)
        return self.edits

    def outline(self, f, sp, body, name, pre):
        u = self.u
        what = 'the spawned statement (in `%s`)' % f.name
        errs, labels = jumps.escapes(u, body, what)
        errs += jumps.gotos_into(u, f.body, body, labels, what)
        if errs:
            self.errs.extend(errs)
            return
        a0, b0 = body.extent.start.offset, rw.full_end(u, body)
        free = []          # [(cursor, how)] in order of first use
        seen = {}
        subs = []
        for n, p in walk(body, skip_spawn=False, into_sizeof=True):
            if n.kind == K.DECL_REF_EXPR:
                d = n.referenced
                if d is None or d.kind not in (K.VAR_DECL, K.PARM_DECL):
                    continue
                sp_ = d.semantic_parent
                if sp_ is None or sp_ != f.c:
                    continue
                do = d.location.offset
                if a0 <= do < b0:
                    continue
                key = vkey(d)
                if key not in seen:
                    # a parameter's type as C adjusts it (an array is a pointer)
                    t = f.vars[key].type if key in f.vars else d.type
                    if d.kind == K.VAR_DECL and d.storage_class in (
                            fe.ci.StorageClass.STATIC, fe.ci.StorageClass.EXTERN):
                        how = 'ref'
                    elif ctype.is_array(t):
                        how = 'array'
                    else:
                        how = 'value'
                    seen[key] = how
                    free.append((d, how, t))
                if seen[key] == 'ref':
                    r = u.written(n)
                    if r is None:
                        self.errs.append(u.diag(n, '`%s` comes out of a macro expansion and '
                                                'cannot be rewritten' % d.spelling))
                        return
                    subs.append((r[0], r[1], '(*cpc_ref_%s)' % d.spelling))
        local_decls = self.local_types(f, body, a0, b0)
        if local_decls is None:
            return
        # `return e;` ends the thread
        for n, p in walk(body):
            if n.kind == K.RETURN_STMT:
                ch = kids(n)
                if ch:
                    e = ch[0]
                    inner = rw.rebuild(u, e.extent.start.offset, e.extent.end.offset,
                                       [s for s in subs if e.extent.start.offset <= s[0]
                                        and s[1] <= e.extent.end.offset])
                    subs.append((rw.start(n), rw.full_end(u, n),
                                 '{ (void)(%s); return; }' % inner))
        params, args, prologue, types = [], [], [], []
        # a free variable whose value S does not read before it writes it
        # (`cpc_spawn for (i = 0; ...)`) is not copied: reading it at the
        # spawn would read an uninitialised variable
        read = read_before_written(f, body)
        unread = []        # (still named at the spawn: it may have no other use there)
        for d, how, dtype in free:
            v = d.spelling
            try:
                if how in ('value', 'array') and vkey(d) not in read:
                    prologue.append(ctype.declare(dtype, v, strip_const=True, keep_cps=True) + ';')
                    unread.append(v)
                elif how == 'value':
                    params.append(ctype.declare(d.type, v, keep_cps=True))  # C adjusts it
                    args.append(v)
                elif how == 'ref':
                    params.append(ctype.declare_ptr_to(dtype, 'cpc_ref_' + v, keep_cps=True))
                    args.append('&' + v)
                else:
                    st = '%s__arr_%s' % (name, v)
                    types.append('struct %s { %s; };' % (st, ctype.declare(dtype, 'v',
                                                                           strip_const=True, keep_cps=True)))
                    params.append('struct %s cpc_arr_%s' % (st, v))
                    prologue.append('%s; __builtin_memcpy(%s, cpc_arr_%s.v, sizeof %s);' % (
                        ctype.declare(dtype, v, strip_const=True, keep_cps=True), v, v, v))
                    args.append('({ struct %s cpc_t; __builtin_memcpy(&cpc_t, %s, '
                                'sizeof cpc_t); cpc_t; })' % (st, v))
            except ctype.Unnameable:
                self.errs.append(u.diag(d, 'the type of `%s`, used in the spawned statement '
                                        'at line %d, cannot be named at file scope; declare '
                                        'the type at file scope' % (v, u.loc_of(sp)[1])))
                return
        text = rw.rebuild(u, a0, b0, subs)
        fn = '\n'.join(types) + ('\n' if types else '')
        fn += '/* the statement spawned at %s:%d */\n' % (u.path, u.loc_of(sp)[1])
        # the function's head (and with it the entry, defer and bounce
        # helpers the emitter writes on its line) on the enclosing function's
        # line, as its spawn thunks: a breakpoint on the spawn's line is then
        # at the spawn site and on the spawned code only
        fn += rw.line_directive(u, rw.head_offset(u, f.c)) + '\n'
        # (compiled as the code around it: CODE_ATTRIBUTES)
        fn += 'static %scps void %s(%s)\n{\n' % (code_attributes_text(u, f.c), name,
                                                ', '.join(params) or 'void')
        prologue = local_decls + prologue
        if prologue:
            fn += '\n'.join(prologue) + '\n'
        # the function's end (where the thread ends) on the statement's last
        # line, not the line after it
        last = text.rsplit('\n', 1)[-1]
        end = ' }' if '//' not in last else '\n' + rw.line_directive(u, b0 - 1) + '\n}'
        fn += rw.line_directive(u, a0) + '\n' + ' ' * rw.col_of(u, a0) + text + end
        pre.append(fn)
        s0 = rw.start(sp)
        call = 'cpc_spawn %s(%s);' % (name, ', '.join(args))
        if unread:
            call = '{ %s %s }' % (' '.join('(void)%s;' % v for v in unread), call)
        # (a directive between `cpc_spawn` and its statement stays)
        kept = rw.directives_in(u, s0, a0)
        if kept:
            call = '\n' + kept + call
        self.edits.append((s0, b0, rw.fix_lines(u, s0, b0, call)))


    def local_types(self, f, body, a0, b0):
        """Declarations, for the outlined function, of the typedefs and
        enumerations of f declared outside the spawned statement that it
        uses (they are not visible at file scope): a typedef as the type it
        stands for, an enumeration as written.  None after an error."""
        u = self.u
        found = {}
        for n, _ in walk(body, skip_spawn=False, into_sizeof=True):
            d = n.referenced if n.kind in (K.TYPE_REF, K.DECL_REF_EXPR) else None
            if d is None:
                continue
            if d.kind == K.ENUM_CONSTANT_DECL:
                d = d.semantic_parent
            if d is None or d.kind not in (K.TYPEDEF_DECL, K.ENUM_DECL) or \
                    d.semantic_parent != f.c or a0 <= d.location.offset < b0:
                continue
            found.setdefault(d.canonical.hash, d)
        out = []
        for d in sorted(found.values(), key=lambda d: d.location.offset):
            if d.kind == K.TYPEDEF_DECL:
                try:
                    # unused when only a nested spawn uses it (outlined next round)
                    out.append('typedef %s __attribute__((unused));' % ctype.declare(
                        d.underlying_typedef_type, d.spelling, keep_cps=True))
                    continue
                except ctype.Unnameable:
                    pass
            else:
                r = u.written(d)
                if r is not None:
                    out.append(u.text[r[0]:r[1]].decode('utf-8', 'surrogateescape') + ';')
                    continue
            self.errs.append(u.diag(d, '`%s`, used in the spawned statement at line %d, '
                                    'cannot be declared again in its thread; declare it at '
                                    'file scope' % (d.spelling, u.loc_of(body)[1])))
            return None
        return out


def outline(u):
    return Outliner(u).run()


def check(u):
    """The invariant of outline on its output: every spawn is a call that
    needs no outlining (a cps callee, spawn-pure arguments, or a call of a
    function this pass generated, whose arguments it wrote itself)."""
    out = []
    for c in u.function_defs():
        f = func(u, c)
        for sp in f.spawns:
            if not fast_path(f, spawn_body(sp)):
                out.append(u.diag(sp, 'a spawned statement of `%s` is not a call of a cps '
                                  'function with spawn-pure arguments' % f.name))
    return out
