"""What the emitter writes outside the bodies of cps functions: the
prototypes of their entry points (with the attributes an entry takes), the
continuation parameter of cpc_need_cont functions and its argument at their
calls, cps functions used as values (their entry converted to the declared
pointer type), spawn sites, and the generated items placed before a
function.  `Declarations` is the base of the emitter (cpsconv.py).
"""
import bisect
import os
import re

from .. import frontend as fe
from ..clang_types import (
    Decayed, TK_FUNCTIONNOPROTO, TK_FUNCTIONPROTO, adjusted_param_type, function_type_of,
    param_types, strip_sugar, tkind)
from ..cursors import kids
from ..analysis.gnu_attributes import (
    attributes, attributes_text, declaration_attributes, declarations_in_main_file,
    function_attributes)
from ..analysis.syntax import (
    args_of, callee_decl, callee_of, decl_fact, is_cps_call, is_cps_function,
    spawn_body, strip, strip_casts)
from ..analysis.func import old_style
from .. import ctype
from .. import rewrite as rw
from ..primitives import PRIMITIVES      # (type, default, name) of each parameter after k
from . import codegen as cg
from .body_nodes import body_nodes

K = fe.K


# GNU attributes of a cps function that its C entry f__cps takes: those of its
# symbol (linkage, section, keeping it, placement) and those about calls of
# it, which are calls of f__cps (`noinline`: a call of f stays a call, as a
# call of a native noinline function does; `always_inline`, `noipa`, ...).
# The others describe the function as C code calls it (its result, its
# arguments by index, `noreturn`, `const`), which the entry is not; Clang
# checked them at the calls already.  (How often f runs, `cold` and `hot`,
# and how its code is compiled, CODE_ATTRIBUTES, go on every function made
# of its code; `flatten`, about the calls its code makes, on the function
# holding the user's code: HOLDER_ATTRIBUTES.)
ENTRY_ATTRIBUTES = {'weak', 'visibility', 'used', 'retain', 'section', 'unused', 'cold', 'hot',
                    'externally_visible', 'no_reorder', 'noinline', 'always_inline', 'noipa',
                    'noclone', 'no_icf'}


# Attributes of the calls the user's code makes: they go on the body (or on
# the entry when it holds the code), never on a resume function, which would
# inline the whole body once per resume point.
HOLDER_ATTRIBUTES = {'flatten'}


# Attributes that make each use of the function a diagnostic at the use
# (`deprecated`, a warning; `unavailable`, an error).  A use of cps function
# f in the generated C is a use of f__cps; so that gcc says so about `f`, at
# the user's line, with the user's message, the C declares `f` itself with
# its native type and these attributes (a declaration that no code
# references: `extern int f(int) __attribute__((deprecated("..."))); `) and
# each use names it in an operand that is never evaluated: a call site or
# spawn site starts with `(void)sizeof(&f);`, a value is
# `((void)sizeof(&f), f__cps)`.  A header's declaration of f, which gcc
# reads natively, serves as well.
USE_ATTRIBUTES = {'deprecated', 'unavailable'}


# Attributes that make the function another symbol's name: f__cps would have
# to name that symbol's entry.
SYMBOL_ATTRIBUTES = {'alias', 'ifunc', 'weakref', 'target_clones'}


# (`target_clones` would make one entry per target.)
# the directory of the runtime's headers, as the prefix of their real paths
RUNTIME_HEADERS = os.path.realpath(fe.RUNTIME_INCLUDE) + os.sep


HEADER_CPS = {'cpc_yield', 'cpc_done', 'cpc_wait', 'cpc_sleep', 'cpc_io_wait', 'cpc_link'}


def param_decls(func_cursor):
    """(name, type) of each parameter, its type adjusted as C does."""
    return [(p.spelling, adjusted_param_type(p.type)) for p in kids(func_cursor)
            if p.kind == K.PARM_DECL]


def entry_param(t, name, old):
    """A parameter of an entry point, of type t or, for an old-style
    function, t's promoted type."""
    p = ctype.promoted(t) if old else None
    if p is not None:
        return ('%s %s' % (p, name)).rstrip()
    return ctype.declare(written(t), name)


def written(t):
    """A parameter's type for a parameter list: as written when it is a
    typedef'd array (gcc's va_arg wants a `va_list` parameter; C adjusts
    it), otherwise the adjusted pointer (which keeps the element's
    qualifiers when the parameter's own const is dropped)."""
    if isinstance(t, Decayed) and ctype.typedef_of(t.written) is not None:
        return t.written
    return t


SPAWNED_RE = re.compile(r'^(.+?)(__spawn_\d+)+$')


def outlined_spawn(f):
    """The match of SPAWNED_RE (group 1: F) when cps function f is a
    spawned statement outlined from F (`F__spawn_N`, static, which no
    declaration of the user's names), else None."""
    m = SPAWNED_RE.match(f.name)
    return m if m and f.c.storage_class == fe.ci.StorageClass.STATIC else None


class EditList(list):
    """The edits [(start, end, text)] of one function, appended to as it is
    emitted, which can say which lie within a range without scanning them
    all (a function can have tens of thousands of call sites): a copy
    sorted by start, into which the edits appended since are merged when
    asked.  They come mostly in the order of the text (a call site after
    another), which goes at the end of the copy without a search; sorting
    the copy again instead cost time in the power 1.5 of the edits."""

    def __init__(self, edits=()):
        super().__init__(edits)
        self._sorted = []
        self._starts = []       # (the copy's starts, searched without a key function)

    def within(self, a, b):
        n = len(self)
        srt, starts = self._sorted, self._starts
        done = len(srt)
        if n < done:                      # shrunk: start again
            srt, starts = self._sorted, self._starts = [], []
            done = 0
        for e in self[done:] if n > done else ():
            s = e[0]
            if not starts or s >= starts[-1]:
                srt.append(e)
                starts.append(s)
            else:       # (after those of the same start, as a stable sort)
                j = bisect.bisect_right(starts, s)
                srt.insert(j, e)
                starts.insert(j, s)
        i = bisect.bisect_left(starts, a)
        out = []
        while i < n and starts[i] <= b:
            if srt[i][1] <= b:
                out.append(srt[i])
            i += 1
        return out


class TagSpans:
    """The file's tags by their starts, sorted once: each of a file's
    functions asks which lie in its specifiers, and a file can have
    thousands of functions and tags."""

    def __init__(self, tags):
        self.tags = tags
        self.order = sorted(tags, key=lambda t: t.extent.start.offset)
        self.starts = [t.extent.start.offset for t in self.order]
        self.ends = [t.extent.end.offset for t in self.order]

    def within(self, a, b):
        """The tags in [a, b], in the order of the file."""
        return [self.order[i] for i in range(bisect.bisect_left(self.starts, a),
                                             bisect.bisect_right(self.starts, b))
                if self.ends[i] <= b]


def comment_text(s, limit=72):
    """s on one line, safe inside a C comment."""
    # (without the directives of the text: `#line`s the translation wrote)
    s = '\n'.join(ln for ln in s.split('\n') if not ln.lstrip().startswith('#'))
    s = ' '.join(s.split()).replace('*/', '* /').replace('/*', '/ *').replace('??', '? ?')
    return s if len(s) <= limit else s[:limit - 3] + '...'


class Declarations:
    def __init__(self, u):
        self.u = u
        self.edits = []
        self.declared_cps = {}   # name -> offset where its __cps prototype is emitted
        # name -> offset of the first __cps prototype emitted with the
        # parameters' types (entry_declared)
        self.entry_prototypes = {}
        self._memcpy_vars = {}   # Var key -> copied with memcpy (ctype.has_const_member)
        self._use_attributes = {}   # function (canonical hash, cursor bytes) -> use_attributes
        self._tag_spans = None      # (tags_declared_in)
        self._param_types = {}      # (functions.callee_params, param_temp)
        self._type_texts = {}       # (typetexts.py)
        self.path = u.path
        self.resident = False    # --dataflow=frame: variables read in the frame (frame.py)

    def diag(self, c, msg):
        return self.u.diag(c, msg)

    def text(self, a, b, small):
        inside = small.within(a, b) if isinstance(small, EditList) else \
            [e for e in small if a <= e[0] and e[1] <= b]
        if not inside:      # (most of a call's arguments)
            return self.u.text[a:b].decode('utf-8', 'surrogateescape')
        return rw.rebuild(self.u, a, b, inside)

    def ctext(self, c, small):
        return self.text(c.extent.start.offset, c.extent.end.offset, small)

    def need_cont_edits(self, f, kexpr, pre):
        out = []
        for call in f.need_cont_calls:
            callee = callee_of(call)
            j = rw.skip_space(self.u.text, callee.extent.end.offset)
            if self.u.text[j:j + 1] != b'(':
                continue
            d = callee_decl(call)
            if d is not None and self.declared_elsewhere(d) and \
                    strip(callee).kind == K.DECL_REF_EXPR:
                # the C compiler sees the header's prototype, without the
                # continuation: call the same symbol through a name
                # declared with the prototype it is defined with
                out.append((callee.extent.start.offset, callee.extent.end.offset,
                            self.need_cont_alias(d, pre)))
            args = args_of(call)
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
            ft = strip_sugar(d.type)[0]
            if tkind(ft) == TK_FUNCTIONNOPROTO:
                # d has no prototype: neither has its alias, so that the
                # call promotes its arguments as the user's call does.
                params = []
            else:
                params = ['cpc_continuation *'] + [ctype.declare(a, '')
                                                   for a in param_types(ft)]
                if ft.is_function_variadic():
                    params.append('...')
            head = ctype.declare(d.type.get_result(), '%s(%s)' % (name, ', '.join(params)))
            pre.append('extern %s __asm__("%s");' % (head, d.mangled_name or d.spelling))
        return name

    def entry_attributes(self, decl, found=None):
        """`__attribute__((...)) ` with the attributes of cps function decl
        that its entry takes (ENTRY_ATTRIBUTES), or ''; `found`: the
        (name, text) pairs to choose from, by default those of decl."""
        if found is None:
            found = declaration_attributes(self.u, decl)
        kept = []
        for name, text in found:
            if name in SYMBOL_ATTRIBUTES:
                raise fe.Diags([self.diag(decl, 'the `%s` attribute is not supported on cps '
                                          'function `%s`' % (name, decl.spelling))])
            if name in ENTRY_ATTRIBUTES:
                kept.append(text)
        names = {name for name, text in found}
        for never in ('noinline', 'noipa'):
            if never in names and 'always_inline' in names:
                # (gcc would ignore one of them, in a warning naming f__cps.)
                # Later declarations inherit both: the error is at the first
                # that has both, the same for every declaration, so that it
                # is reported once (frontend.Collected).
                both = lambda d: {never, 'always_inline'} <= {
                    n for n, t in declaration_attributes(self.u, d)}
                at = next(filter(both, declarations_in_main_file(self.u, decl)), decl)
                raise fe.Diags([self.diag(at, 'the `%s` and `always_inline` attributes '
                                          'contradict each other on cps function `%s`' %
                                          (never, decl.spelling))])
        return attributes_text(kept)

    def use_attributes(self, decl):
        """The USE_ATTRIBUTES of function decl's declarations: their texts
        (looked up once per function: asked at each of its call sites)."""
        # (the cursor a call's callee references is the same bytes at each
        # of its calls: the canonical declaration is asked once per them)
        memo = self._use_attributes
        at = bytes(decl)
        try:
            return memo[at]
        except KeyError:
            pass
        key = decl.canonical.hash
        try:
            r = memo[key]
        except KeyError:
            r = memo[key] = [t for n, t in function_attributes(self.u, decl)
                             if n in USE_ATTRIBUTES]
        memo[at] = r
        return r

    def entry_ref(self, d):
        """How generated code names the entry of cps function d where the
        user's code uses it as a value: `d__cps`, or with d named too when
        a use of d is diagnosed (USE_ATTRIBUTES).  (A call site's block
        names d in a statement of its own, first: cg.use_of.)"""
        entry = cg.entry_name(d.spelling)
        if not self.use_attributes(d):
            return entry
        return '(%s %s)' % (cg.use_of(d.spelling)[:-1] + ',', entry)

    def use_declaration(self, decl):
        """`; extern T f(P) __attribute__((deprecated ...))` for a cps
        function decl that has USE_ATTRIBUTES (after its entry's prototype),
        or ''."""
        found = self.use_attributes(decl)
        if not found:
            return ''
        try:
            native = ctype.declare(decl.type, decl.spelling)
        except ctype.Unnameable:
            return ''
        return '; extern %s %s' % (native, attributes_text(found).rstrip())

    def cps_proto(self, decl, storage=None, names=True):
        ps = []
        ft = strip_sugar(decl.type)[0]
        params = param_decls(decl)
        if params:
            old = old_style(self.u, decl)
            for (n, t) in params:
                ps.append(entry_param(t, n if names else '', old))
        elif tkind(ft) == TK_FUNCTIONPROTO:
            ps = [ctype.declare(t, '') for t in param_types(ft)]
        if tkind(ft) == TK_FUNCTIONPROTO and ft.is_function_variadic():
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
        # (the user's own declarations declare f too when its uses are
        # diagnosed)
        use = self.use_declaration(decl) if storage is None else ''
        if not ps and tkind(ft) == TK_FUNCTIONNOPROTO:
            # `cps char *g();` declares no parameters: nor does its entry
            return cg.unprototyped(st, decl.spelling) + use
        return cg.prototype(st, decl.spelling, ps) + use

    def external_protos(self, f, out):
        """Prototypes of the cps functions called or spawned in f that no
        declaration of the main file introduces before f (those declared
        only in headers, whose C-mode declaration is native-looking)."""
        calls = list(f.cps_calls)
        for sp in f.spawns:
            b = spawn_body(sp)
            if b is not None and strip_casts(b).kind == K.CALL_EXPR:
                calls.append(strip_casts(b))
        for call in calls:
            d = callee_decl(call)
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
        ps = [x for x in kids(c) if x.kind == K.PARM_DECL]
        if not ps:
            # () or (void)
            k = t.index(b')', j)
            self.edits.append((i + 1, k, cg.K_PARAM))
        else:
            self.edits.append((i + 1, i + 1, cg.K_PARAM + ', '))

    def value_edits(self, root, pre):
        """Edits turning each cps function used as a value (`f` or `&f`, not
        the callee of a direct call) into its entry point f__cps converted to
        the function's declared, native-looking pointer type; prototypes of
        those declared only in headers go to `pre`."""
        nodes = body_nodes(root)
        direct = set()
        for n in nodes.calls:
            ch = kids(n)
            if ch:
                direct.add(id(strip(ch[0])))      # (the walk's objects)
        addr = {}
        for n in nodes.addr_of:
            ch = kids(n)
            if ch:
                addr[id(strip(ch[0]))] = n
        refs = []
        for n in nodes.refs:
            d = n.referenced
            if d is not None and d.kind == K.FUNCTION_DECL and \
                    decl_fact(d, 'cps', is_cps_function):     # (once per function)
                refs.append((n, d))
        out = []
        for n, d in refs:
            i = id(n)
            if i in direct:
                continue
            whole = addr.get(i, n)
            if whole is not n and id(whole) in direct:
                continue  # (&f)(x): a direct call
            try:
                text = ctype.as_value(d.type, self.entry_ref(d))
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
            proto = self.cps_proto(d, storage=st, names=False) + ';'
        except ctype.Unnameable:
            return
        # (at the header's declaration, which gcc's notes on a call then name)
        where = d.location
        out.append(cg.Placed(proto, '#line %d "%s"' % (where.line,
                                                       rw.cstr(os.path.normpath(where.file.name))))
                   if where.file is not None and not self.u.in_main_file(d) else proto)
        self.note_entry_prototype(d, at)

    def note_entry_prototype(self, d, at):
        """The C declares d's entry at offset `at` (with the parameters'
        types if d has a prototype)."""
        seen = self.entry_prototypes.setdefault(d.spelling, [at, None])
        if seen[1] is None and tkind(strip_sugar(d.type)[0]) == TK_FUNCTIONPROTO:
            seen[1] = at

    def entry_prototype_of(self, f, sig):
        """The prototype of cps function f's entry that its definition
        needs before the functions around it (which call it), or '' when
        the C declares the entry with its parameters' types before already
        (a declaration of the main file's, or a call's: extern_proto): a
        declaration that the source does not repeat, gcc would report as a
        redundant redeclaration (-Wredundant-decls).  After a declaration
        without a prototype (`cps int f();`), the prototype is needed (the
        deferred entry passes the parameters' types), and gcc is told that
        it is no redeclaration of the user's."""
        at = f.c.extent.start.offset
        first, prototyped = self.entry_prototypes.get(f.name, (at, None))
        proto = cg.entry_prototype(f.name, sig.entry_pdecls, sig.lead,
                                   label=first == at and outlined_spawn(f) is not None) + ';'
        if prototyped is not None and prototyped < at:
            return ''
        if first < at:
            return cg.without_warning('-Wredundant-decls', proto)
        return proto

    def tags_declared_in(self, a, b):
        """The struct, union and enum tags that the specifiers of the cps
        declaration or definition at [a, b) declare or define at file scope
        (`cps struct node *f(struct node *);`, `cps struct pair {...} g(void);`),
        as declarations of their own: the entry's prototype has no result type,
        so without them the parameters' `struct node` would be another type,
        scoped to the prototype, and a definition would be lost."""
        spans = self._tag_spans
        if spans is None or spans.tags is not self.tags:
            spans = self._tag_spans = TagSpans(self.tags)
        return ''.join(self.u.src(t) + '; ' for t in spans.within(a, b))

    def generated_prelude(self, a, frames, pre):
        """Frames and helper functions emitted before the function at offset
        a.  Each helper is attributed to the function's first line, so that
        gcc's messages and gdb's backtraces in them name a real .cpc line (a
        prototype of a header's cps function to its line in the header:
        codegen.Placed)."""
        txt = ''
        if frames:
            txt += cg.frames_block(frames)
        # on the function's line only: a helper on a statement's line would
        # be one more breakpoint location for that line, stopping again when
        # the helper runs (a resume stub when the thread resumes)
        txt += cg.placed_lines(rw.line_directive(self.u, a), pre)
        return txt

    def insert_before(self, f, frames, pre):
        a = f.c.extent.start.offset
        txt = self.generated_prelude(rw.head_offset(self.u, f.c), frames, pre)
        txt += rw.resync(self.u, a)
        self.edits.append((a, a, txt))

    def spawn_edits(self, f, small, pre, frames, in_cps):
        for i, sp in enumerate(f.spawns, 1):
            body = spawn_body(sp)
            call = strip_casts(body)
            if call.kind != K.CALL_EXPR or not is_cps_call(call):
                raise fe.Diags([self.diag(sp, 'cpc_spawn of a statement that is not a '
                                          'call to a cps function is not supported yet')])
            name = '%s__spawn_%d' % (f.name, i)
            callee = callee_of(call)
            d = callee_decl(call)
            ft = function_type_of(callee.type)
            fields = []
            assigns = []
            args = args_of(call)
            ptypes = [adjusted_param_type(t) for t in param_types(ft)] \
                if tkind(ft) == TK_FUNCTIONPROTO else []
            cargs = []
            if d is None:
                fields.append(ctype.declare_rvalue(callee.type, 'cpc_callee') + ';')
                assigns.append('cpc_a->cpc_callee = %s;' % self.ctext(callee, small))
                fn = ctype.as_entry(ft, 'cpc_a->cpc_callee')
            else:
                # (the thunk is on the function's line: the use of d is the
                # spawn site's)
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
            if d is not None and self.use_attributes(d):
                body.insert(1, '    ' + cg.use_of(d.spelling))
            ind = rw.indent_of(self.u, rw.start(sp))
            code = cg.pin(rw.line_directive(self.u, rw.start(sp)),
                          [body[0]] + [ind + x for x in body[1:]])
            small.append((rw.start(sp), rw.full_end(self.u, sp),
                          rw.fix_lines(self.u, rw.start(sp), rw.full_end(self.u, sp), code)))
