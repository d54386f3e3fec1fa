"""CPS conversion and emission of the generated C.

Invariant: on a prepared, normalised and boxed unit, `emit(u)` returns C
source (for the header's C mode) equivalent to the CPC program, in the shape
of docs/abi.md: each cps function f becomes `f__cps(k, params)` (budget
check, bounce frame `struct f__args` and `f__bounce`) and, when it has
resume points, a static `f__body(k, cpc_resume, params)` that dispatches to
the label `f__resumed_N` after call N, keeping the user's statements.  The
body pushes one `struct f__frame` per invocation (every variable live across
some call), storing at once the parameters it never assigns and, when there
is one resume point, its resume function; each non-tail cps call evaluates
its arguments into temporaries, stores in the frame the other variables
live across it (and `f__resume_N`), and returns `g__cps(k, ...)`; the
resume point reads the frame in place, restores the variables and reads the
result.  Every way out drops the frame; `return v;` becomes cpc_return.  Spawns of calls
become a fresh continuation holding the arguments and a per-site thunk.
Calls to cpc_need_cont functions get `k` (NULL in native code) first.
Everything else is copied byte for byte; `#line` directives keep gcc's
messages on the .cpc file.  This module decides what to generate where; the
text of each generated item is written by codegen.py.
"""
import bisect
import os
import re

from .. import frontend as fe
from .. import analysis as an
from .. import ctype
from .. import rewrite as rw
from ..primitives import PRIMITIVES      # (type, default, name) of each parameter after k
from ..analysis import retain
from .split import split, callee_result
from .lift import Lifting
from . import codegen as cg

K = fe.K
TAG_DECLS = (K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL)

# GNU attributes of a cps function that its C entry f__cps takes: those of its
# symbol (linkage, section, keeping it) and of its placement.  The others
# describe the function as C code calls it (its result, its arguments by
# index, `noreturn`, `const`), which the entry is not; Clang checked them at
# the calls already.
ENTRY_ATTRIBUTES = {'weak', 'visibility', 'used', 'retain', 'section', 'unused', 'cold', 'hot'}
# Attributes that make the function another symbol's name: f__cps would have
# to name that symbol's entry.
SYMBOL_ATTRIBUTES = {'alias', 'ifunc', 'weakref', 'target_clones'}
# (`target_clones` would make one entry per target.  The attributes of its
# code, an.CODE_ATTRIBUTES, go on every function made of it.)
# the directory of the runtime's headers, as the prefix of their real paths
RUNTIME_HEADERS = os.path.realpath(fe.RUNTIME_INCLUDE) + os.sep
HEADER_CPS = {'cpc_yield', 'cpc_done', 'cpc_wait', 'cpc_sleep', 'cpc_io_wait', 'cpc_link'}


def zero(t):
    if ctype.is_scalar(t):
        return '0'
    try:
        return '(%s){0}' % ctype.declare(t, '', strip_const=True)
    except ctype.Unnameable:
        return '0'


def param_decls(func_cursor):
    """(name, type) of each parameter, its type adjusted as C does."""
    return [(p.spelling, fe.adjusted_param_type(p.type)) for p in an.kids(func_cursor)
            if p.kind == K.PARM_DECL]


def old_style(u, func_cursor):
    """A function defined in the old style, `f(a, b) T a; ... {}`: it has
    parameters but no prototype, so its callers pass the arguments with the
    default promotions (C11 6.5.2.2p6), and the function converts them to
    the parameters' types (6.9.1p10).  Its entry point takes the promoted
    types, which keeps it compatible with `f()` declarations and calls."""
    # Clang gives such a definition a prototyped type; what tells it is that
    # no parameter has a type written in the list (which then holds no
    # parentheses): each is declared after its `)`, or is a bare name
    # (implicitly int)
    params = [p for p in an.kids(func_cursor) if p.kind == K.PARM_DECL]
    if not params or func_cursor.location.file is None:
        return False
    close = u.text.find(b')', func_cursor.location.offset)
    return close >= 0 and all(
        p.extent.start.offset > close or
        (p.spelling and p.extent.start.offset == p.location.offset and
         p.extent.end.offset == p.location.offset + len(p.spelling))
        for p in params)


def entry_param(t, name, old):
    """A parameter of an entry point, of type t or, for an old-style
    function, t's promoted type."""
    p = ctype.promoted(t) if old else None
    if p is not None:
        return ('%s %s' % (p, name)).rstrip()
    return ctype.declare(written(t), name)


def parameter_bounds(em, f):
    """Statements evaluating the size expressions written in the array
    parameters of f (`int b[n++]`), which C evaluates on entry (C11 6.9.1p10)
    although the parameter is a pointer: once, where the body is entered
    from the entry, before the frame stores the parameters.  Constants are
    left out."""
    out = []
    for p in an.kids(f.c):
        if p.kind != K.PARM_DECL:
            continue
        for x in an.kids(p):
            if not x.kind.is_expression() or fe.integer_value(x) is not None:
                continue
            r = em.u.written(x)
            if r is None:
                raise fe.Diags([em.diag(x, 'the size of parameter `%s` comes out of a macro '
                                        'expansion' % p.spelling)])
            out.append('(void)(%s);' % em.u.text[r[0]:r[1]].decode('utf-8', 'surrogateescape'))
    return out


def written(t):
    """A parameter's type for a parameter list: as written when it is a
    typedef'd array (gcc's va_arg wants a `va_list` parameter; C adjusts
    it), otherwise the adjusted pointer (which keeps the element's
    qualifiers when the parameter's own const is dropped)."""
    if isinstance(t, fe.Decayed) and ctype.typedef_of(t.written) is not None:
        return t.written
    return t


class EditList(list):
    """The edits [(start, end, text)] of one function, appended to as it is
    emitted, which can say which lie within a range without scanning them
    all (a function can have tens of thousands of call sites): a part
    sorted by start, and the edits appended since, merged into it when they
    outnumber its square root."""

    def __init__(self, edits=()):
        super().__init__(edits)
        self._sorted = []

    def within(self, a, b):
        n = len(self)
        done = len(self._sorted)
        if n < done:                      # shrunk: start again
            self._sorted, done = [], 0
        if (n - done) ** 2 > n:
            self._sorted = sorted(self, key=_edit_start)
            done = n
        srt = self._sorted
        i = bisect.bisect_left(srt, a, key=_edit_start)
        out = []
        while i < len(srt) and srt[i][0] <= b:
            if srt[i][1] <= b:
                out.append(srt[i])
            i += 1
        out += [e for e in self[done:] if a <= e[0] and e[1] <= b]
        return out


def _edit_start(e):
    return e[0]


class Emitter:
    def __init__(self, u):
        self.u = u
        self.edits = []
        self.declared_cps = {}   # name -> offset where its __cps prototype is emitted
        self._memcpy_vars = {}   # Var key -> copied with memcpy (ctype.has_const_member)
        # definition (hash, offset) -> called without a prototype: asked at
        # every call, and libclang gives each call a new cursor of the callee
        self._unprototyped = {}
        self.path = u.path

    def diag(self, c, msg):
        return self.u.diag(c, msg)

    def text(self, a, b, small):
        inside = small.within(a, b) if isinstance(small, EditList) else \
            [e for e in small if a <= e[0] and e[1] <= b]
        return rw.rebuild(self.u, a, b, inside)

    def ctext(self, c, small):
        return self.text(c.extent.start.offset, c.extent.end.offset, small)

    # -- need_cont calls
    def need_cont_edits(self, f, kexpr, pre):
        out = []
        for call in f.need_cont_calls:
            callee = an.callee_of(call)
            j = rw.skip_space(self.u.text, callee.extent.end.offset)
            if self.u.text[j:j + 1] != b'(':
                continue
            d = an.callee_decl(call)
            if d is not None and self.declared_elsewhere(d) and \
                    an.strip(callee).kind == K.DECL_REF_EXPR:
                # the C compiler sees the header's prototype, without the
                # continuation: call the same symbol through a name
                # declared with the prototype it is defined with
                out.append((callee.extent.start.offset, callee.extent.end.offset,
                            self.need_cont_alias(d, pre)))
            args = an.args_of(call)
            out.append((j + 1, j + 1, kexpr + (', ' if args else '')))
        return out

    def declared_elsewhere(self, d):
        """cpc_need_cont function d is first declared outside the main file
        and outside the runtime's headers (which declare the C entry of
        theirs, continuation first): in a user header, whose prototype the
        translator does not rewrite."""
        loc = d.canonical.location
        if loc.file is None or loc.file.name == self.u.path:
            return False
        return not os.path.realpath(loc.file.name).startswith(RUNTIME_HEADERS)

    def need_cont_alias(self, d, pre):
        """`d__need_cont`, declared once before its first use as the symbol
        of d taking the continuation first (an asm label names d's own
        symbol)."""
        name = d.spelling + '__need_cont'
        if name not in self.need_cont_aliases:
            self.need_cont_aliases.add(name)
            ft = fe.strip_sugar(d.type)[0]
            params = ['cpc_continuation *'] + [ctype.declare(a, '') for a in ft.argument_types()]
            if ft.is_function_variadic():
                params.append('...')
            head = ctype.declare(d.type.get_result(), '%s(%s)' % (name, ', '.join(params)))
            pre.append('extern %s __asm__("%s");' % (head, d.mangled_name or d.spelling))
        return name

    # -- prototypes
    def entry_attributes(self, decl):
        """`__attribute__((...)) ` with the attributes of cps function decl
        that its entry takes (ENTRY_ATTRIBUTES), or ''."""
        kept = []
        for name, text in an.attributes(decl):
            if name in SYMBOL_ATTRIBUTES:
                raise fe.Diags([self.diag(decl, 'the `%s` attribute is not supported on cps '
                                          'function `%s`' % (name, decl.spelling))])
            if name in ENTRY_ATTRIBUTES:
                kept.append(text)
        return '__attribute__((%s)) ' % ', '.join(kept) if kept else ''

    def cps_proto(self, decl, storage=None, names=True):
        ps = []
        ft = fe.strip_sugar(decl.type)[0]
        params = param_decls(decl)
        if params:
            old = old_style(self.u, decl)
            for (n, t) in params:
                ps.append(entry_param(t, n if names else '', old))
        elif fe.tkind(ft) == fe.TK_FUNCTIONPROTO:
            ps = [ctype.declare(t, '') for t in ft.argument_types()]
        if fe.tkind(ft) == fe.TK_FUNCTIONPROTO and ft.is_function_variadic():
            ps.append('...')
        st = ''
        if storage is None:
            sc = decl.storage_class
            if sc == fe.ci.StorageClass.STATIC:
                st = 'static '
            elif sc == fe.ci.StorageClass.EXTERN:
                st = 'extern '
        else:
            st = storage
        st += self.entry_attributes(decl)
        if not ps and fe.tkind(ft) == fe.TK_FUNCTIONNOPROTO:
            # `cps char *g();` declares no parameters: nor does its entry
            return cg.unprototyped(st, decl.spelling)
        return cg.prototype(st, decl.spelling, ps)

    def external_protos(self, f, out):
        """Prototypes of the cps functions called or spawned in f that no
        declaration of the main file introduces before f (those declared
        only in headers, whose C-mode declaration is native-looking)."""
        calls = list(f.cps_calls)
        for sp in f.spawns:
            b = an.spawn_body(sp)
            if b is not None and an.strip_casts(b).kind == K.CALL_EXPR:
                calls.append(an.strip_casts(b))
        for call in calls:
            d = an.callee_decl(call)
            if d is not None:
                self.extern_proto(d, out, f.c.extent.start.offset)

    def need_cont_param(self, c):
        """A cpc_need_cont function declared or defined in the main file
        takes the continuation first, `cpc_continuation *cpc_k` (NULL from
        native context); its own calls of cpc_need_cont functions pass it on."""
        t = self.u.text
        i = rw.skip_space(t, c.location.offset + len(c.spelling))
        if t[i:i + 1] != b'(':
            raise fe.Diags([self.diag(c, 'cannot add the continuation parameter of the '
                                      'cpc_need_cont function `%s` (declared through a '
                                      'typedef or macro?)' % c.spelling)])
        j = rw.skip_space(t, i + 1)
        ps = [x for x in an.kids(c) if x.kind == K.PARM_DECL]
        if not ps:
            # () or (void)
            k = t.index(b')', j)
            self.edits.append((i + 1, k, cg.K_PARAM))
        else:
            self.edits.append((i + 1, i + 1, cg.K_PARAM + ', '))

    # -- cps functions as values
    def value_edits(self, root, pre):
        """Edits turning each cps function used as a value (`f` or `&f`, not
        the callee of a direct call) into its entry point f__cps converted to
        the function's declared, native-looking pointer type; prototypes of
        those declared only in headers go to `pre`."""
        direct = set()
        addr = {}
        refs = []
        for n, p in an.walk(root, skip_spawn=False):
            if n.kind == K.CALL_EXPR:
                ch = an.kids(n)
                if ch:
                    direct.add(an.node_id(an.strip(ch[0])))
            elif n.kind == K.UNARY_OPERATOR and fe.unop(n) == fe.UO['AddrOf']:
                ch = an.kids(n)
                if ch:
                    addr[an.node_id(an.strip(ch[0]))] = n
            elif n.kind == K.DECL_REF_EXPR:
                d = n.referenced
                if d is not None and d.kind == K.FUNCTION_DECL and \
                        fe.is_cps_function_type(d.type):
                    refs.append((n, d))
        out = []
        for n, d in refs:
            i = an.node_id(n)
            if i in direct:
                continue
            whole = addr.get(i, n)
            if whole is not n and an.node_id(whole) in direct:
                continue  # (&f)(x): a direct call
            try:
                text = ctype.as_value(d.type, cg.entry_name(d.spelling))
            except ctype.Unnameable as e:
                raise fe.Diags([self.diag(n, 'the type of `%s` cannot be named: %s' % (
                    d.spelling, e))])
            r = self.u.written(whole)
            if r is None:
                raise fe.Diags([self.diag(n, 'the cps function `%s` is used as a value in '
                                          'a macro expansion that cannot be rewritten' %
                                          d.spelling)])
            out.append((r[0], r[1], text))
            self.extern_proto(d, pre, root.extent.start.offset)
        return out

    def extern_proto(self, d, out, at):
        """Declare d__cps in `out` unless the main file declares d before
        offset `at` or it was declared already."""
        if d.spelling in HEADER_CPS:
            return
        first = min(self.first_decl.get(d.spelling, at + 1),
                    self.declared_cps.get(d.spelling, at + 1))
        if first <= at:
            return
        self.declared_cps[d.spelling] = at
        try:
            st = 'static ' if d.storage_class == fe.ci.StorageClass.STATIC else 'extern '
            out.append(self.cps_proto(d, storage=st, names=False) + ';')
        except ctype.Unnameable:
            pass

    # -- the file
    def run(self):
        u = self.u
        self.first_decl = {}
        self.need_cont_aliases = set()
        self.tags = [c for c in u.top() if c.kind in TAG_DECLS and u.in_main_file(c)]
        for c in u.top():
            if c.kind == K.FUNCTION_DECL and u.in_main_file(c):
                self.first_decl.setdefault(c.spelling, c.extent.start.offset)
        together = {}
        for c in u.top():
            if c.kind != K.FUNCTION_DECL or not u.in_main_file(c):
                continue
            if an.has_annotation(c, 'cpc_need_cont') and not fe.is_cps_function_type(c.type):
                self.need_cont_param(c)
            if c.is_definition():
                continue
            if fe.is_cps_function_type(c.type):
                # `cps int f(int), g(int);`: declarators sharing specifiers
                # share a start; they become one list of prototypes
                a = c.extent.start.offset
                b = rw.declarator_end(u, c.extent.end.offset)
                if a in together:
                    together[a][0] = max(together[a][0], b)
                    together[a][1].append(self.cps_proto(c))
                else:
                    together[a] = [b, [self.cps_proto(c)]]
        for a, (b, protos) in together.items():
            kept = rw.directives_in(u, a, b) + self.tags_declared_in(a, b)
            self.edits.append((a, b, kept + '; '.join(protos) +
                               ('\n' + rw.resync(u, b) if kept else '')))
        for c in u.top():
            if c.kind == K.VAR_DECL and u.in_main_file(c):
                pre = []
                small = self.value_edits(c, pre)
                if small:
                    self.edits.extend(rw.outermost(small))
                    if pre:
                        a = c.extent.start.offset
                        self.edits.append((a, a, '\n'.join(pre) + '\n' + rw.resync(u, a)))
        for c in u.function_defs():
            f = an.func(u, c)
            if f.is_cps:
                self.cps_function(f)
            else:
                self.native_function(f)
        # the pragma has done its work (boxing); gcc -Wall would warn about it
        for m in retain.PRAGMA_RE.finditer(u.text):
            a, b = m.start(), m.end()
            if not any(e[0] <= a < e[1] for e in self.edits):
                self.edits.append((a, b, '/* %s */' % u.text[a:b].decode(
                    'utf-8', 'surrogateescape').replace('*/', '* /')))
        body = rw.apply(u.text, self.edits).decode('utf-8', 'surrogateescape')
        return cg.PREAMBLE + '#line 1 "%s"\n' % rw.cstr(self.path) + body

    def tags_declared_in(self, a, b):
        """The struct, union and enum tags that the specifiers of the cps
        declaration or definition at [a, b) declare or define at file scope
        (`cps struct node *f(struct node *);`, `cps struct pair {...} g(void);`),
        as declarations of their own: the entry's prototype has no result type,
        so without them the parameters' `struct node` would be another type,
        scoped to the prototype, and a definition would be lost."""
        return ''.join(self.u.src(t) + '; ' for t in self.tags
                       if a <= t.extent.start.offset and t.extent.end.offset <= b)

    def native_function(self, f):
        if f.body is None:
            return
        if f.cps_calls:
            errs = []
            for call in f.cps_calls:
                callee = an.callee_decl(call)
                if callee is not None:
                    errs.append(self.diag(call, 'cps function `%s` called from native '
                                          'function `%s`; only cps functions and '
                                          'cpc_spawn may call it' % (callee.spelling, f.name)))
                else:
                    errs.append(self.diag(call, 'call through the cps function pointer `%s` '
                                          '(of type `%s`) in native function `%s`; only cps '
                                          'functions and cpc_spawn may call it' % (
                                              self.u.src(an.callee_of(call)),
                                              fe.type_name(an.callee_of(call).type), f.name)))
            raise fe.Diags(errs)
        pre = []
        small = EditList(self.need_cont_edits(
            # (no macro: the function may be a rendering whose macros are
            # undefined around it, NULL included)
            f, 'cpc_k' if an.has_annotation(f.c, 'cpc_need_cont') else '(cpc_continuation *)0',
            pre))
        frames = []
        small += self.value_edits(f.body, pre)
        # prototypes first: the spawn thunks call the functions they declare
        self.external_protos(f, pre)
        self.spawn_edits(f, small, pre, frames, in_cps=False)
        self.edits.extend(rw.outermost(small))
        if pre or frames:
            self.insert_before(f, frames, pre)

    def generated_prelude(self, a, frames, pre):
        """Frames and helper functions emitted before the function at offset
        a.  Each helper is attributed to the function's first line, so that
        gcc's messages and gdb's backtraces in them name a real .cpc line."""
        txt = ''
        if frames:
            txt += cg.frames_block(frames)
        # on the function's line only: a helper on a statement's line would
        # be one more breakpoint location for that line, stopping again when
        # the helper runs (a resume stub when the thread resumes)
        line = rw.line_directive(self.u, a)
        txt += ''.join(line + '\n' + cg.pin(line, p.split('\n')) + '\n' for p in pre)
        return txt

    def insert_before(self, f, frames, pre):
        a = f.c.extent.start.offset
        txt = self.generated_prelude(rw.head_offset(self.u, f.c), frames, pre)
        txt += rw.resync(self.u, a)
        self.edits.append((a, a, txt))

    # -- spawn
    def spawn_edits(self, f, small, pre, frames, in_cps):
        for i, sp in enumerate(f.spawns, 1):
            body = an.spawn_body(sp)
            call = an.strip_casts(body)
            if call.kind != K.CALL_EXPR or not an.is_cps_call(call):
                raise fe.Diags([self.diag(sp, 'cpc_spawn of a statement that is not a '
                                          'call to a cps function is not supported yet')])
            name = '%s__spawn_%d' % (f.name, i)
            callee = an.callee_of(call)
            d = an.callee_decl(call)
            ft = fe.function_type_of(callee.type)
            fields = []
            assigns = []
            args = an.args_of(call)
            ptypes = [fe.adjusted_param_type(t) for t in ft.argument_types()] \
                if fe.tkind(ft) == fe.TK_FUNCTIONPROTO else []
            cargs = []
            if d is None:
                fields.append(ctype.declare_rvalue(callee.type, 'cpc_callee') + ';')
                assigns.append('cpc_a->cpc_callee = %s;' % self.ctext(callee, small))
                fn = ctype.as_entry(ft, 'cpc_a->cpc_callee')
            else:
                fn = cg.entry_name(d.spelling)
            prim = PRIMITIVES.get(d.spelling) if d is not None else None
            for j, a in enumerate(args):
                if prim is not None and j < len(prim):
                    decl = '%s a%d' % (prim[j][0], j)
                elif j < len(ptypes):
                    decl = ctype.declare_rvalue(ptypes[j], 'a%d' % j)
                else:
                    decl = ctype.declare_rvalue(a.type, 'a%d' % j)
                fields.append(decl + ';')
                if ctype.has_const_member(a.type):
                    assigns.append('{ %s = %s; __builtin_memcpy(&cpc_a->a%d, &cpc_v, '
                                   'sizeof cpc_v); }' % (ctype.declare_rvalue(a.type, 'cpc_v'),
                                                         self.ctext(a, small), j))
                else:
                    assigns.append('cpc_a->a%d = %s;' % (j, self.ctext(a, small)))
                cargs.append('cpc_a->a%d' % j)
            if prim is not None:
                for j in range(len(args), len(prim)):
                    cargs.append(prim[j][1])
            fields.append('cpc_function *cpc_fn;')
            # the thunk F__spawn_N__start pops struct F__spawn_N__start_args
            # (F__spawn_N may also name an outlined spawned statement)
            st = cg.spawn_args_name(name)
            frames.append(cg.spawn_args_struct(st, fields))
            pops_args = cargs and any(x.startswith('cpc_a->') for x in cargs) or d is None
            pre.append(cg.spawn_start(name, st, pops_args, fn, cargs))
            body = cg.spawn_site(name, comment_text(self.u.src(sp)), st, assigns)
            ind = rw.indent_of(self.u, rw.start(sp))
            code = cg.pin(rw.line_directive(self.u, rw.start(sp)),
                          [body[0]] + [ind + x for x in body[1:]])
            small.append((rw.start(sp), rw.full_end(self.u, sp),
                          rw.fix_lines(self.u, rw.start(sp), rw.full_end(self.u, sp), code)))

    # -- cps functions
    def cps_function(self, f):
        """Replace cps function f by its generated items (codegen.py) and
        its body, with call sites, resume points and returns rewritten."""
        cfg = an.Cfg(f)
        self.check_cps_body(f)
        sites = split(f, cfg)
        self.check_variably_modified_scopes(f, sites)
        pre = []
        small = EditList(self.need_cont_edits(f, 'cpc_k', pre))
        frames = []
        sig = Signature(self, f)
        small += self.value_edits(f.body, pre)
        # prototypes first: the spawn thunks call the functions they declare
        # (the function's own entry too, when it spawns itself)
        self.external_protos(f, pre)
        if f.spawns:
            pre.append(cg.entry_prototype(f.name, sig.entry_pdecls, sig.lead) + ';')
        self.spawn_edits(f, small, pre, frames, in_cps=True)
        frames.append(cg.args_struct(f.name, sig.pfields))
        if sites:
            pre.append(cg.body_prototype(f.name, sig.bdecls, sig.code) + ';')
        else:
            pre.append(cg.entry_prototype(f.name, sig.entry_pdecls, sig.lead) + ';')
        layout = FrameLayout(self, f, cfg, sites, Lifting(f, cfg))
        if sites:
            frames.append(cg.frame_struct(f.name, layout.fields))
        frame = cg.frame_name(f.name) if sites else None
        for site in cfg.sites:
            if site.tail:
                small.append(self.tail_call(f, site, frame, small))
        self.site_edits(f, cfg, sites, layout, sig, frame, pre, small)
        self.return_edits(f, cfg, sig, frame, small)
        pre.append(cg.bounce(f.name, sig.pnames, bool(sites), sig.code))
        union, need = cg.reserve_union(f.name, bool(sites),
                                       None if sig.void else ctype.declare_field(sig.rt, 'ret'))
        if union:
            frames.append(union)
        pre.append(cg.defer(f.name, sig.pdecls, need,
                            [ctype.copy('cpc_a->' + n, n, t) for (n, t) in sig.params], sig.code))
        # GNU local labels are declared first in the block, before the
        # generated opening
        labels = an.leading_label_declarations(self.u, f.body)
        for d in labels:
            small.append((rw.start(d), rw.full_end(self.u, d), ''))
        start, bodytext, end = self.user_body(f, small, frame)
        if sites:
            pre.append(cg.entry_calling_body(f.name, sig.entry_pdecls, sig.lead, need,
                                             sig.pnames))
            stable = cg.stable_frame(len(sites))
            push = sig.bounds + cg.frame_push(
                f.name, [ctype.copy('cpc_f->' + v.name, v.name, v.type) for v in layout.fixed],
                sites[0].index if len(sites) == 1 else None, stable)
            opening = cg.body_opening(f.name, [s.index for s in sites], push,
                                      self.frame_ptr_used or len(push) > 1, stable)
            head = cg.body_prototype(f.name, sig.bdecls, sig.code) + '\n'
        else:
            opening = ''.join(sig.conversions) + cg.budget(f.name, need, sig.pnames) + \
                ''.join('    %s\n' % b for b in sig.bounds)
            head = cg.entry_prototype(f.name, sig.entry_body_pdecls, sig.lead) + '\n'
        a = f.c.extent.start.offset
        # the body's prototype and dispatch on the function's line
        opening = ''.join(self.text(rw.start(d), rw.full_end(self.u, d), []) + ' '
                          for d in labels) + opening
        head_at = rw.head_offset(self.u, f.c)
        newbody = cg.pin(rw.line_directive(self.u, head_at),
                         (head + '{\n' + opening).rstrip('\n').split('\n')) + '\n' + \
            rw.resync(self.u, start) + bodytext + end
        define, undef = cg.function_name_macros(user_function_name(f))
        specs = f.body.extent.start.offset
        txt = rw.directives_in(self.u, a, specs) + self.tags_declared_in(a, specs) + define + \
            self.generated_prelude(head_at, frames, pre)
        txt += rw.line_directive(self.u, head_at) + '\n'
        e = f.c.extent.end.offset
        self.edits.append((a, e, txt + newbody + '\n' + undef + rw.resync(self.u, e)))

    def site_edits(self, f, cfg, sites, layout, sig, frame, pre, small):
        """The resume functions and the rewritten call sites."""
        lifted = set()
        checked = set()
        self.frame_ptr_used = False
        lines, dead = {}, {}
        defined = self.definition_lines(cfg) if sites else {}
        self.stable = cg.stable_frame(len(sites))
        for site in sites:
            vs = layout.site_vars[site.index]
            pre.append(cg.resume(f.name, site.index, [zero(t) for (n, t) in sig.params],
                                 sig.code, many=self.stable))
            lines[site.index] = rw.presumed_line(self.u, rw.start(site.stmt))[1]
            saved = {v.key for v in vs}
            # (the user's variables: gdb shows no translation temporary cpc_*)
            dead[site.index] = [(f.vars[k].name, defined.get(k, ()))
                                for k in site.scope if k not in saved and k in f.vars
                                and not f.vars[k].name.startswith('cpc_')]
            stored = [v for v in vs if v.key not in layout.fixed_keys]
            small.append(self.call_site(f, site, vs, stored, frame, len(sites) != 1, small))
            lifted.update(v.key for v in vs if v.key not in checked and not v.is_param and
                          ctype.is_const(v.type))
            checked.update(v.key for v in vs)       # (each variable's type looked at once)
        if lines:
            pre.append(cg.resume_lines(f.name, [lines.get(i, 0)
                                                for i in range(1, max(lines) + 1)]))
            pre.append(cg.resume_dead(f.name, [dead.get(i, ())
                                               for i in range(1, max(lines) + 1)]))
        if lifted:
            self.unconst_decls(f, cfg, lifted, small)

    def definition_lines(self, cfg):
        """{variable key: sorted lines of the statements that set it}."""
        out = {}
        for n in cfg.nodes:
            if n.cursor is None or not n.defs:
                continue
            line = rw.presumed_line(self.u, n.cursor.extent.start.offset)[1]
            for k in n.defs:
                out.setdefault(k, set()).add(line)
        return {k: sorted(v) for k, v in out.items()}

    def return_edits(self, f, cfg, sig, frame, small):
        """Each `return` that is not a call site drops the frame and
        returns through the continuation."""
        for n, p in an.walk(f.body):
            if n.kind != K.RETURN_STMT or any(s.stmt == n for s in cfg.sites):
                continue
            ch = an.kids(n)
            if not ch:
                code = cg.return_nothing(frame)
            elif sig.void:
                code = cg.return_void_expr(self.ctext(ch[0], small), frame)
            else:
                code = cg.return_value(ctype.declare_rvalue(sig.rt, 'cpc_ret'),
                                       self.ctext(ch[0], small), frame)
            small.append((rw.start(n), rw.full_end(self.u, n), code))

    def user_body(self, f, small, frame):
        """(start, text, end): the user's body from after its `{` (or from
        the next line when the rest of the `{` line is blank, so no empty
        line follows the #line), rewritten, and its generated end."""
        u = self.u
        b0, b1 = f.body.extent.start.offset, f.body.extent.end.offset
        start = b0 + 1
        j = u.text.find(b'\n', start, b1 - 1)
        if j >= 0 and not u.text[start:j].strip():
            start = j + 1
        bodytext = self.text(start, b1 - 1, rw.outermost(small))
        # falling off the end returns on the line of the body's closing brace
        # (a new line would be attributed to the line after the function)
        bodytext = bodytext.rstrip(' \t')
        return start, bodytext, cg.body_end(bodytext.endswith('\n'), cg.drop(frame))

    def unconst_decls(self, f, cfg, keys, small):
        """A const local restored at a resume point is declared without its
        own `const` (a read-only object cannot be assigned from the frame):
        the declaration is written again from its type."""
        u = self.u
        site_stmts = {an.node_id(s.stmt) for s in cfg.sites}
        for n, p in an.walk(f.body):
            if n.kind != K.DECL_STMT or an.node_id(n) in site_stmts:
                continue
            vs = an.kids(n)
            if not any(x.kind == K.VAR_DECL and an.vkey(x) in keys for x in vs):
                continue
            if p is not None and p.kind == K.FOR_STMT and len(vs) > 1:
                raise fe.Diags([self.diag(n, 'a const variable declared with others in a '
                                          '`for` header is live across a cps call; '
                                          'declare it before the loop')])
            out = []
            for v in vs:
                if v.kind != K.VAR_DECL:
                    raise fe.Diags([self.diag(n, 'a const variable live across a cps call '
                                              'is declared together with a type; declare '
                                              'the type separately')])
                try:
                    d = ctype.declare(v.type, v.spelling, strip_const=an.vkey(v) in keys)
                except ctype.Unnameable as e:
                    raise fe.Diags([self.diag(v, 'the const variable `%s` is live across a '
                                              'cps call and its type cannot be named (%s); '
                                              'name the type' % (v.spelling, e))])
                if v.storage_class == fe.ci.StorageClass.REGISTER:
                    d = 'register ' + d
                init = an.var_init(u, v)
                if init is not None:
                    d += ' = ' + self.ctext(init, small)
                out.append(d + ';')
            a, b = rw.start(n), rw.full_end(u, n)
            small.append((a, b, rw.fix_lines(u, a, b, ' '.join(out))))

    def check_cps_body(self, f):
        for n, p in an.walk(f.body):
            if n.kind == K.CALL_EXPR:
                d = an.callee_decl(n)
                if d is None:
                    continue
                s = d.spelling
                if s in ('setjmp', '_setjmp', 'sigsetjmp', '__sigsetjmp', 'longjmp',
                         '_longjmp', 'siglongjmp', '__builtin_setjmp',
                         '__builtin_longjmp') and f.cps_calls:
                    raise fe.Diags([self.diag(n, '`%s` in cps function `%s`: setjmp/longjmp '
                                              'cannot cross a cps call' % (s, f.name))])
                self.check_unprototyped_arity(n, d)
                if s in ('__builtin_apply_args', '__builtin_apply', '__builtin_return'):
                    raise fe.Diags([self.diag(n, '`%s` in cps function `%s`: the arguments '
                                              'of a cps function are not where the C '
                                              'calling convention puts them' % (s, f.name))])
                if s in ('alloca', '__builtin_alloca') and f.cps_calls:
                    raise fe.Diags([self.diag(n, '`alloca` in cps function `%s`: the memory '
                                              'would not survive a cps call' % f.name)])

    def check_unprototyped_arity(self, call, d):
        """A call of a cps function defined without a prototype (`f(a) int
        a; {...}`, `f() {...}`) must pass as many arguments as the definition
        has parameters: C leaves any other call undefined, and the generated
        entry point, which is prototyped, could not be called with them."""
        if not an.is_cps_call(call):
            return
        defn = d.get_definition()
        if defn is None:
            return
        key = (defn.hash, defn.extent.start.offset, fe.tkind(d.type))
        if key not in self._unprototyped:
            self._unprototyped[key] = fe.tkind(d.type) == fe.TK_FUNCTIONNOPROTO or \
                old_style(self.u, defn)
        if not self._unprototyped[key]:
            return
        want, got = len(list(defn.get_arguments())), len(list(call.get_arguments()))
        if want != got:
            df, dl, _ = self.u.loc_of(defn)
            raise fe.Diags([self.diag(call, 'cps function `%s` called with %d argument%s, but '
                                      'its definition at %s:%d has %d parameter%s' % (
                                          d.spelling, got, '' if got == 1 else 's', df, dl,
                                          want, '' if want == 1 else 's'))])

    def check_variably_modified_scopes(self, f, sites):
        """A resume point is a label that the body's dispatch jumps to, and
        C forbids jumping into the scope of an identifier of variably
        modified type (C11 6.8.6.1): none may be in scope at a cps call
        that resumes."""
        if not sites:
            return
        scopes = an.variably_modified_scopes(f.body)
        errs = []
        for site in sites:
            at = site.call.extent.start.offset
            errs += [self.diag(site.call, '`%s` has a variably modified type and is in scope '
                               'at this cps call: a thread cannot resume inside the scope of '
                               'a variable-length array or of a type derived from one; end '
                               'the scope (a block) before the call' % d.spelling)
                     for d, end in scopes if d.extent.end.offset <= at < end]
        if errs:
            raise fe.Diags(errs)

    def call_args(self, site, small, temps=True):
        """(temporary declarations, C argument list after k, callee C name).
        temps=True: every argument is evaluated into a temporary; None:
        only those with side effects (which could change a variable stored
        in the frame before the call); False: none."""
        call = site.call
        callee = an.callee_of(call)
        d = an.callee_decl(call)
        ft = fe.function_type_of(callee.type)
        ptypes = [fe.adjusted_param_type(t) for t in ft.argument_types()] if ft is not None and \
            fe.tkind(ft) == fe.TK_FUNCTIONPROTO else []
        prim = PRIMITIVES.get(d.spelling) if d is not None else None
        decls = []
        names = []
        if d is None:
            decls.append('%s = %s;' % (ctype.declare_rvalue(callee.type, 'cpc_callee'),
                                       self.ctext(callee, small)))
            fn = ctype.as_entry(ft, 'cpc_callee')
        else:
            fn = cg.entry_name(d.spelling)
        args = an.args_of(call)
        for j, a in enumerate(args):
            if temps is False or (temps is None and not has_side_effects(a)):
                names.append(self.ctext(a, small))
                continue
            nm = 'cpc_a%d' % (j + 1)
            if prim is not None and j < len(prim):
                dl = '%s %s' % (prim[j][0], nm)
            elif j < len(ptypes):
                dl = ctype.declare_rvalue(ptypes[j], nm)
            else:
                dl = ctype.declare_rvalue(a.type, nm)
            decls.append('%s = %s;' % (dl, self.ctext(a, small)))
            names.append(nm)
        if prim is not None:
            for j in range(len(args), len(prim)):
                names.append(prim[j][1])
        return decls, names, fn

    def tail_call(self, f, site, frame, small):
        call = site.call
        callee = an.callee_of(call)
        d = an.callee_decl(call)
        prim = PRIMITIVES.get(d.spelling) if d is not None else None
        args = [self.ctext(a, small) for a in an.args_of(call)]
        if prim is not None:
            for j in range(len(args), len(prim)):
                args.append(prim[j][1])
        fn = cg.entry_name(d.spelling) if d is not None else \
            ctype.as_entry(fe.function_type_of(callee.type), self.ctext(callee, small))
        code = cg.tail_call(fn, args, frame)
        s = site.stmt
        return (rw.start(s), rw.full_end(self.u, s), code)

    def copy_var(self, dst, src, v):
        """ctype.copy for variable v, its type looked at once per function
        (a large function copies each variable at hundreds of sites)."""
        try:
            memcpy = self._memcpy_vars[v.key]
        except KeyError:
            memcpy = self._memcpy_vars[v.key] = ctype.has_const_member(v.type)
        if memcpy:
            return ctype.copy(dst, src, v.type)
        return '%s = %s;' % (dst, src)

    def call_site(self, f, site, vs, stored, frame, store_fn, small):
        """Call site `site`: store the variables `stored` (and cpc_fn when
        store_fn) in the frame, call; at the resume point restore `vs`.
        All of it on the line of the call (codegen.call_site)."""
        u = self.u
        name = f.name
        stores = [self.copy_var('cpc_f->' + v.name, v.name, v) for v in stored]
        decls, names, fn = self.call_args(site, small,
                                          temps=None if stores or store_fn else False)
        restores = [self.copy_var(v.name, 'cpc_f->' + v.name, v) for v in vs]
        result = []
        result_temps = []
        rt = callee_result(site.call)
        prefix = ''
        if site.form == 'decl':
            v = an.kids(site.stmt)[0]
            try:
                prefix = ctype.declare(v.type, v.spelling, strip_const=True) + ';'
            except ctype.Unnameable:
                prefix = self.text(rw.start(site.stmt), rw.start(site.call), small).rstrip()
                if prefix.endswith('='):
                    prefix = prefix[:-1]
                prefix += ';'
            if ctype.same_type(v.type, rt):
                result.append(cg.result_into(v.spelling))
            else:
                result_temps.append(ctype.declare_rvalue(rt, 'cpc_r') + ';')
                result.append(cg.result_converted(v.spelling))
        elif site.form == 'assign':
            result_temps.append(ctype.declare_rvalue(rt, 'cpc_r') + ';')
            result.append(cg.result_converted(self.ctext(site.dest, small)))
        elif site.form == 'return':
            if not ctype.is_void(f.c.type.get_result()):
                result_temps.append(ctype.declare_rvalue(rt, 'cpc_r') + ';')
                result_temps.append(ctype.declare_rvalue(f.c.type.get_result(), 'cpc_ret') + ';')
                result += cg.result_returned(frame)
            else:
                result += cg.void_returned(frame)
        body, uses_frame = cg.call_site(name, site.index, comment_text(u.src(site.stmt)),
                                        decls, result_temps, stores,
                                        site.index if store_fn else None, fn, names,
                                        restores, result, self.stable)
        self.frame_ptr_used = self.frame_ptr_used or uses_frame
        if prefix:
            body = [prefix] + body
        s = site.stmt
        ind = rw.indent_of(u, rw.start(s))
        a, b = rw.start(s), rw.full_end(u, s)
        code = cg.pin(rw.line_directive(u, a), [body[0]] + [ind + x for x in body[1:]])
        return (a, b, rw.fix_lines(u, a, b, code))


def has_side_effects(e):
    """Whether evaluating expression e may change an object or call a
    function (so it must be evaluated before the frame stores)."""
    for n, _ in an.walk(e):
        k = n.kind
        if k in (K.CALL_EXPR, K.StmtExpr, K.COMPOUND_ASSIGNMENT_OPERATOR):
            return True
        if k == K.BINARY_OPERATOR and fe.binop(n) == fe.BO['Assign']:
            return True
        if k == K.UNARY_OPERATOR and fe.unop(n) in (
                fe.UO['PostInc'], fe.UO['PostDec'], fe.UO['PreInc'], fe.UO['PreDec']):
            return True
    return False


class Signature:
    """A cps function's parameters and result as the generated items
    declare them."""

    def __init__(self, em, f):
        self.params = param_decls(f.c)
        for n, t in self.params:
            if ctype.is_variably_modified(t):
                # (its bounds would be evaluated again, with other values,
                # each time the body is entered at a resume point)
                raise fe.Diags([em.diag(f.c, 'cps function `%s` cannot take `%s`, a parameter '
                                        'of variably modified type (a variable-length array); '
                                        'pass a pointer of a fixed type and index it by hand'
                                        % (f.name, n))])
        try:
            # parameter lists keep the written type (C adjusts it, and gcc's
            # va_arg wants a `va_list` parameter); fields hold the adjusted one
            self.pdecls = [ctype.declare(written(t), n) for (n, t) in self.params]
            old = old_style(em.u, f.c)
            self.entry_pdecls = [entry_param(t, n, old) for (n, t) in self.params]
            # an entry that is also the body takes the promoted arguments
            # under other names, and converts them to the parameters
            self.conversions = []
            self.entry_body_pdecls = []
            for (n, t), d in zip(self.params, self.entry_pdecls):
                if old and ctype.promoted(t) is not None:
                    self.conversions.append('    %s = cpc_arg_%s;\n' % (
                        ctype.declare(written(t), n), n))
                    d = entry_param(t, 'cpc_arg_' + n, old)
                self.entry_body_pdecls.append(d)
            self.pfields = [ctype.declare_field(t, n) + ';' for (n, t) in self.params]
            # the body restores parameters at resume points: not const there
            self.bdecls = [ctype.declare(written(t), n, strip_const=True)
                           for (n, t) in self.params]
        except ctype.Unnameable as e:
            raise fe.Diags([em.diag(f.c, 'parameter type cannot be named: %s' % e)])
        self.pnames = [n for (n, t) in self.params]
        self.bounds = parameter_bounds(em, f)
        self.rt = f.c.type.get_result()
        self.void = ctype.is_void(self.rt)
        # what the entry's declaration starts with
        self.code = an.code_attributes_text(em.u, f.c)
        self.lead = ('static ' if f.c.storage_class == fe.ci.StorageClass.STATIC else '') + \
            em.entry_attributes(f.c) + self.code


class FrameLayout:
    """The frame: one per invocation, pushed at entry and popped on the way
    out, holding every variable live across some call (`fields`, in
    declaration order, parameters first).  Parameters the body never
    assigns (`fixed`) are stored once, at entry; a call site stores the
    rest (`site_vars[index]`: what resume point `index` restores)."""

    def __init__(self, em, f, cfg, sites, lift):
        self.site_vars = {site.index: lift.frame_vars(site) for site in sites}
        first = {}
        for site in sites:
            for v in self.site_vars[site.index]:
                first.setdefault(v.key, (site, v))
        ordered = sorted(first.values(),
                         key=lambda sv: (not sv[1].is_param, sv[1].cursor.location.offset))
        assigned = an.assigned_anywhere(cfg) if sites else set()
        self.fixed = [v for (_, v) in ordered if v.is_param and v.key not in assigned]
        self.fixed_keys = set(v.key for v in self.fixed)
        self.fields = []
        for (site, v) in ordered:
            try:
                self.fields.append(ctype.declare_field(v.type, v.name) + ';')
            except ctype.Unnameable as e:
                raise fe.Diags([em.diag(site.call, 'a variable live across this cps call '
                                        'has a type that cannot be named at file scope '
                                        '(%s); declare the type at file scope' % e)])


SPAWNED_RE = re.compile(r'^(.+?)(__spawn_\d+)+$')


def user_function_name(f):
    """The name C gives the function whose code f holds: an outlined spawned
    statement (`F__spawn_N`, static) is part of F."""
    m = SPAWNED_RE.match(f.name)
    if m and f.c.storage_class == fe.ci.StorageClass.STATIC:
        return m.group(1)
    return f.name


def comment_text(s, limit=72):
    """s on one line, safe inside a C comment."""
    # (without the directives of the text: `#line`s the translation wrote)
    s = '\n'.join(ln for ln in s.split('\n') if not ln.lstrip().startswith('#'))
    s = ' '.join(s.split()).replace('*/', '* /').replace('/*', '/ *').replace('??', '? ?')
    return s if len(s) <= limit else s[:limit - 3] + '...'


# A `#line` directive followed at once by another one maps no line: it only
# makes the generated C harder to read.
SHADOWED_LINE_RE = re.compile(r'^#line [^\n]*\n(?=#line )', re.M)


def emit(u):
    return SHADOWED_LINE_RE.sub('', Emitter(u).run())
