"""cpc-check (CoroCheck): static analysis and inference of cooperation
annotations on C and CPC files (SPEC section 4; "QEMU/CPC", section 4: docs/references.md).

Usage: cpc-check [options] FILE... [-- CLANG-ARGS...]

The files are parsed with the translator's Clang front-end (cpc.frontend:
same flags, resource directory, runtime headers, `cps` as a type tag) and
merged into one call graph whose nodes are functions (by USR), indirect
call targets (the callee expression of a call through an annotated
function pointer) and `cpc_spawn` statements (anonymous cooperative
threads).  A function or function pointer is *annotated* (cooperative)
when one of its declarations

  - spells the attribute name before its own name (`cps void f()`,
    `int coroutine_fn f()`, an empty `#define coroutine_fn` included),
  - carries `__attribute__((annotate("NAME")))` (also through a macro), or
  - has a type tagged `btf_type_tag("NAME")` (`cps` is the translator's
    `cpc_cps` tag), directly or through a typedef, which is how calls
    through pointers, struct fields and typedef'd parameters are seen.

The same goes for the blocking attribute.  Checks: missing annotations
(a non-cooperative function calls an annotated one), spurious annotations
(an annotated function that calls no cooperative function and is not a
primitive, an entry point, spawned or stored in a function pointer),
calls to blocking functions from cooperative code, and function pointer
flows (casts, assignments, initialisers, arguments, returns, `?:`) that
add or lose the annotation.  `--infer` computes the least fixed point of
"calls a cooperative function" from the roots and lists the functions
that must be annotated; `--dot` writes the annotated call graph.

Exit status: 0 clean (warnings allowed), 1 errors found (or, with
--infer, annotations to add), 2 usage, input or parse error.
"""
import argparse
import difflib
import os
import re
import sys

# --------------------------------------------------------------------------
# Diagnostics


class Report:
    def __init__(self):
        self.items = []          # (file, line, col, severity, msg)
        self.seen = set()

    def add(self, loc, severity, msg):
        f, line, col = loc
        key = (f, line, col, severity, msg)
        if key in self.seen:
            return
        self.seen.add(key)
        self.items.append(key)

    def count(self, severity):
        return sum(1 for x in self.items if x[3] == severity)

    def lines(self, order):
        def k(x):
            return (order.get(x[0], len(order)), x[0] or '', x[1], x[2])
        out = []
        for f, line, col, sev, msg in sorted(self.items, key=k):
            where = '%s:%d:%d: ' % (f, line, col) if f else ''
            out.append('%s%s: %s' % (where, sev, msg))
        return out


class UsageError(Exception):
    pass


# --------------------------------------------------------------------------
# Graph


class Node:
    """A call graph node: a function, an indirect callee or a spawn."""

    def __init__(self, key, name, kind):
        self.key = key
        self.name = name
        self.kind = kind            # 'func', 'ptr', 'spawn', 'linked'
        self.decls = []             # declaration cursors (functions)
        self.coro = False           # annotated cooperative
        self.block = False          # annotated blocking
        self.coro_at = None         # location of one annotating declaration
        self.defn = None            # (path, offset) of the definition in an analysed file
        self.defn_loc = None        # (file, line, col) of the definition's name
        self.local = False          # defined in an analysed file
        self.root = None            # why it is cooperative regardless of its calls
        self.calls = []             # Edge list (out)
        self.inferred = False       # cooperative after the fixed point
        self.why = None             # Edge that made it cooperative
        self.decl_locs = []         # [(loc, spelled_coro, system, (file, offset), DeclPos)]
        self.owner = None           # for spawn nodes: the enclosing function node
        self.need_cont = False      # a cpc_need_cont function (gets the continuation)
        self.uses_cont = False      # calls a cpc_need_cont function
        self.native_use = False     # its address goes where a native function is expected

    def __repr__(self):
        return 'Node(%s)' % self.name


class DeclPos:
    """Where a declaration is written (what --infer=patch and --fix edit),
    kept without its translation unit."""
    __slots__ = ('file', 'start', 'name')

    def __init__(self, cursor):
        e, l = cursor.extent, cursor.location
        self.file = l.file.name if l.file is not None else None
        same = e.start.file is not None and e.start.file.name == self.file
        self.start = e.start.offset if same else None    # the declaration's first byte
        self.name = l.offset                             # the declared name's


class Edge:
    def __init__(self, src, dst, loc, detached=False, kind='call', text=None):
        self.src = src
        self.dst = dst
        self.loc = loc
        self.detached = detached    # inside cpc_detached / cpc_linked(pool)
        self.kind = kind            # 'call' or 'spawn'
        self.text = text
        self.bad = False
        self.asserted = False       # a hybrid test inside an assertion


# --------------------------------------------------------------------------
# The checker


class Checker:
    def __init__(self, opts):
        from cpc import frontend as fe
        from cpc import analysis as an
        self.fe = fe
        self.an = an
        self.cpc_include = os.path.realpath(fe.RUNTIME_INCLUDE) + os.sep
        self.K = fe.K
        self.opts = opts
        self.names = {'coro': list(opts.coroutine_attr), 'block': list(opts.blocking_attr)}
        self.tags = {}
        self.res = {}
        for w, ns in self.names.items():
            tags = set(ns)
            if 'cps' in ns:
                tags.add('cpc_cps')
            self.tags[w] = tags
            self.res[w] = re.compile(r'\b(%s)\b' % '|'.join(re.escape(n) for n in ns))
        self.coro_name = self.names['coro'][0]
        self.block_name = self.names['block'][0]
        self.report = Report()
        self.nodes = {}
        self.unit_lengths = {}        # analysed file -> length of the text parsed
        self.seen_decls = set()       # (file, offset) of the declarations registered
        self.texts = {}
        self.main_paths = set()
        self.decl_cache = {}
        self.spawn_count = 0
        self.slots_to_annotate = []   # (ident, DeclPos) of pointer slots a cooperative function flows into
        self.native_flows = []        # (source, destination) of function pointers into native slots
        self.native_slots = set()     # slots that must stay native (native_by_use)
        self.stored_in_coro = set()   # functions stored in cooperative slots
        self.asserted = []            # (file, start, end): conditions of assertions

    # ---------------------------------------------------------------- util

    def file_text(self, name):
        t = self.texts.get(name)
        if t is None:
            try:
                with open(name, 'rb') as fh:
                    t = fh.read()
            except OSError:
                t = b''
            self.texts[name] = t
        return t

    def loc(self, cursor, start=True):
        l = cursor.extent.start if start and cursor.extent is not None else cursor.location
        if l.file is None:
            l = cursor.location
        f, line, col = self.fe.presumed(l)
        return (f or (l.file.name if l.file else None), line, col)

    def name_loc(self, cursor):
        f, line, col = self.fe.presumed(cursor.location)
        return (f or (cursor.location.file.name if cursor.location.file else None), line, col)

    def is_system(self, cursor):
        l = cursor.location
        if l.file is None:
            return True
        try:
            return l.is_in_system_header
        except Exception:
            return False

    def src(self, unit, c):
        e = c.extent
        if e.start.file is None or e.start.file.name != unit.path:
            return c.spelling
        s = unit.text[e.start.offset:e.end.offset].decode('utf-8', 'replace')
        return re.sub(r'\s+', ' ', s).strip() or c.spelling

    # --------------------------------------------------- annotation finding

    def decl_has(self, c, which):
        """Declaration cursor c is annotated `which` ('coro' or 'block')."""
        key = (c.hash, c.location.offset, c.spelling, which)
        r = self.decl_cache.get(key)
        if r is None:
            r = self._decl_has(c, which) or self.type_has(c.type, which)
            self.decl_cache[key] = r
        return r

    def _decl_has(self, c, which):
        names = self.names[which]
        for ch in c.get_children():
            if ch.kind == self.K.ANNOTATE_ATTR and ch.spelling in names:
                return True
        return self.spelled(c, which)

    def spelled(self, c, which):
        """The attribute (or a macro of that name) is written before the
        declared name, in this declaration, or an annotate attribute of
        this very declaration says so."""
        loc, ext = c.location, c.extent
        if loc.file is None or ext is None or ext.start.file is None or \
                ext.start.file.name != loc.file.name:
            return False
        a, b = ext.start.offset, loc.offset
        if b < a:
            return False
        ftext = self.file_text(loc.file.name)
        text = ftext[a:b].decode('utf-8', 'replace')
        if self.res[which].search(text):
            return True
        # a macro that expands to nothing (`cps` in C mode, QEMU's empty
        # coroutine_fn) before the first specifier is outside the extent:
        # look back to the end of the previous declaration
        pre = ftext[max(0, a - 256):a].decode('utf-8', 'replace')
        # (a parameter's look-back stops at its parenthesis or comma: the
        # function's own annotation lies before them)
        pre = re.split(r'[;{}(,]' if c.kind == self.K.PARM_DECL else r'[;{}]', pre)[-1]
        pre = re.sub(r'/\*.*?\*/|//[^\n]*|^\s*#[^\n]*', ' ', pre, flags=re.S | re.M)
        if '*/' in pre:
            pre = pre.split('*/')[-1]
        if self.res[which].search(pre):
            return True
        names = self.names[which]
        for ch in c.get_children():
            if ch.kind == self.K.ANNOTATE_ATTR and ch.spelling in names:
                cl = ch.location
                if cl.file is not None and cl.file.name == loc.file.name and \
                        a <= cl.offset <= ext.end.offset:
                    return True
        return False

    def tag_in(self, t, which):
        m = re.findall(r'btf_type_tag\("([^"]*)"\)', t.spelling)
        return any(x in self.tags[which] for x in m)

    def type_has(self, t, which):
        """Type t (a function, a pointer to one, through typedefs) is
        annotated: a btf tag on it or its result, or an annotated typedef."""
        fe = self.fe
        for _ in range(48):
            k = fe.tkind(t)
            if k == fe.TK_BTF_TAG:
                if self.tag_in(t, which):
                    return True
                t = fe.modified_type(t)
            elif k == fe.TK_ATTRIBUTED:
                t = fe.modified_type(t)
            elif k == fe.TK_TYPEDEF:
                d = t.get_declaration()
                if d is not None and d.kind == self.K.TYPEDEF_DECL and self._decl_has(d, which):
                    return True
                t = d.underlying_typedef_type
            elif k == fe.TK_ELABORATED:
                t = t.get_named_type()
            elif k == fe.TK_POINTER:
                t = t.get_pointee()
            elif k in (fe.TK_CONSTANTARRAY, fe.TK_INCOMPLETEARRAY, fe.TK_VARIABLEARRAY):
                # a table of function pointers is annotated like its elements
                t = t.element_type
            elif k in (fe.TK_FUNCTIONPROTO, fe.TK_FUNCTIONNOPROTO):
                return self.result_has(t.get_result(), which)
            elif k in (0, 1) or k < 40 or k in (fe.TK_RECORD, fe.TK_ENUM):
                return False
            else:
                c = t.get_canonical()
                if fe.tkind(c) == k:
                    return False
                t = c
        return False

    def result_has(self, r, which):
        """The attribute binds to the declaration specifiers: look for the
        tag on the result type, through pointers, not into function types."""
        fe = self.fe
        for _ in range(32):
            k = fe.tkind(r)
            if k == fe.TK_BTF_TAG:
                if self.tag_in(r, which):
                    return True
                r = fe.modified_type(r)
            elif k == fe.TK_ATTRIBUTED:
                r = fe.modified_type(r)
            elif k == fe.TK_TYPEDEF:
                r = r.get_declaration().underlying_typedef_type
            elif k == fe.TK_ELABORATED:
                r = r.get_named_type()
            elif k == fe.TK_POINTER:
                r = r.get_pointee()
            elif k in (fe.TK_CONSTANTARRAY, fe.TK_INCOMPLETEARRAY):
                r = r.element_type
            else:
                return False
        return False

    def is_fnptr(self, t):
        return self.fe.function_type_of(t) is not None

    # ------------------------------------------------------------- nodes

    def fn_node(self, d):
        """The node of FUNCTION_DECL d (any declaration of it)."""
        key = d.get_usr() or ('name:' + d.spelling)
        n = self.nodes.get(key)
        if n is None:
            n = Node(key, d.spelling, 'func')
            self.nodes[key] = n
        self.add_decl(n, d)
        return n

    def add_decl(self, n, d):
        ident = (d.location.file.name if d.location.file else None, d.location.offset)
        if any(x[3] == ident for x in n.decl_locs):
            return
        c = self.decl_has(d, 'coro')
        b = self.decl_has(d, 'block')
        if c:
            n.coro = True
            if n.coro_at is None:
                n.coro_at = self.name_loc(d)
        if b:
            n.block = True
        if any(ch.kind == self.K.ANNOTATE_ATTR and ch.spelling == 'cpc_need_cont'
               for ch in d.get_children()):
            n.need_cont = True
        sp = self.spelled(d, 'coro') or (self.type_has(d.type, 'coro') and not self.is_system(d))
        n.decl_locs.append((self.name_loc(d), sp, self.is_system(d), ident, DeclPos(d)))

    def ptr_node(self, text, coro, block):
        key = 'ptr:%s:%d:%d' % (text, coro, block)
        n = self.nodes.get(key)
        if n is None:
            n = Node(key, text, 'ptr')
            n.coro = coro
            n.block = block
            self.nodes[key] = n
        return n

    def special_node(self, name):
        key = 'special:' + name
        n = self.nodes.get(key)
        if n is None:
            n = Node(key, name, 'linked')
            n.coro = True
            self.nodes[key] = n
        return n

    # -------------------------------------------------------------- parse

    def parse_all(self, files, clang_args, per_file=None):
        """per_file: {path: clang args} from a compilation database; the
        other files get clang_args."""
        ok = True
        for path in files:
            try:
                with open(path, 'rb') as fh:
                    text = fh.read()
            except OSError as e:
                sys.stderr.write('cpc-check: error: cannot read %s: %s\n' % (path, e.strerror))
                ok = False
                continue
            if os.path.isdir(path):
                sys.stderr.write('cpc-check: error: %s is a directory\n' % path)
                ok = False
                continue
            try:
                args = list(per_file[path] if per_file and path in per_file else clang_args)
                if not path.endswith('.cpc'):
                    # a .c file is compiled as plain C (cpcc does not translate
                    # it): the runtime header in its C mode, unless asked
                    args = ['-U__CPC_FRONTEND__'] + args
                u = self.parse(text, path, args)
            except self.fe.Diags as e:
                for d in e.diags:
                    sys.stderr.write(d.format() + '\n')
                ok = False
                continue
            self.texts[path] = u.text
            self.unit_lengths[path] = len(u.text)
            self.main_paths.add(path)
            # the graph keeps no cursor: each unit is read, then let go,
            # so a whole project does not hold every translation unit
            self.build_unit(u)
            self.unit = None
            u.release()
        return ok

    def parse(self, text, path, args):
        try:
            from cpc import nested        # lifts nested functions, as cpcc does
            return nested.parse(text, path, args, self.fe.parse)
        except ImportError:
            return self.fe.parse(text, path, args)

    # -------------------------------------------------------------- build

    def expansion(self, c):
        """(libclang's file handle, offset) of cursor c's location, where
        a macro is expanded: one C call, no Python objects, to sort the
        thousands of declarations a header brings."""
        import ctypes
        ci = self.fe.ci
        f, off = ci.c_object_p(), ctypes.c_uint()
        ci.conf.lib.clang_getInstantiationLocation(
            c.location, ctypes.byref(f), None, None, ctypes.byref(off))
        return ctypes.cast(f, ctypes.c_void_p).value, off.value

    def build_unit(self, u):
        K = self.K
        self.unit = u
        top = list(u.tu.cursor.get_children())
        handles = {}            # file handle -> name, for this unit
        where = []
        for c in top:
            h, off = self.expansion(c)
            name = handles.get(h)
            if name is None and h is not None:
                loc = c.location
                name = handles[h] = loc.file.name if loc.file is not None else ''
            where.append((name, off))
        # pass 1: every function declaration of the file and of the
        # (non-system) headers it includes; a header's declarations are
        # registered by the first unit that includes it
        for c, (name, off) in zip(top, where):
            if c.kind != K.FUNCTION_DECL or not name:
                continue
            if name != u.path and (name, off) in self.seen_decls:
                continue
            self.seen_decls.add((name, off))
            if self.is_system(c):
                continue
            n = self.fn_node(c)
            if name == u.path and n.defn is None and c.is_definition():
                n.defn = (u.path, off)
                n.defn_loc = self.name_loc(c)
                n.local = True
        # pass 2: bodies and file-scope initialisers
        for c, (name, off) in zip(top, where):
            if name != u.path:
                continue
            if c.kind == K.FUNCTION_DECL and c.is_definition():
                n = self.fn_node(c)
                if n.defn != (u.path, off):
                    continue
                self.func = c
                ctx = (n, False)
                for x in c.get_children():
                    if x.kind == K.COMPOUND_STMT:
                        self.visit(x, ctx)
            elif c.kind == K.VAR_DECL:
                self.func = None
                self.visit(c, None)
        self.func = None

    def build(self):
        """The roots, once every file is read."""
        self.native_by_use()
        # roots
        for name in self.opts.primitive:
            for n in self.by_name(name, '--primitive'):
                n.root = 'primitive'
                n.coro = True
        for name in self.opts.native:
            for n in self.by_name(name, '--native'):
                n.root = 'native'
        for n in self.nodes.values():
            if n.kind == 'func' and n.name == 'main' and n.local and n.root is None:
                n.root = 'native'
        for name in self.opts.entry:
            for n in self.by_name(name, '--entry'):
                n.root = n.root or 'entry'
        self.primitives_defined_here()

    def cpc_header(self, path):
        """Whether path is one of CPC's own headers (the runtime's include
        directory): they declare what they declare, never edited."""
        return os.path.realpath(path).startswith(self.cpc_include)

    def user_file(self, path):
        """An analysed file or one of its user headers."""
        if path is None:
            return False
        return path in self.main_paths or not self.cpc_header(path)

    def primitives_defined_here(self):
        """Annotated functions defined in the analysed files that call no
        annotated function, whose annotation a header gives (the interface
        says they are cooperative), and that annotated code calls: the
        coroutine library's own primitives (QEMU's qemu_coroutine_yield,
        which switches natively).  They are roots, as primitives declared
        elsewhere are; an annotation written only where the function is
        defined, or on a function that only native code calls, is still
        checked for being spurious."""
        called_by_coro = set()
        for n in self.nodes.values():
            if n.coro:
                for e in n.calls:
                    called_by_coro.add(e.dst.key)
        for n in self.nodes.values():
            if n.kind != 'func' or not n.local or not n.coro or n.root is not None:
                continue
            if n.key not in called_by_coro:
                continue
            if any(e.dst.coro for e in n.calls):
                continue
            if any(sp and ident[0] not in self.main_paths and not system
                   for (_l, sp, system, ident, _d) in n.decl_locs):
                n.root = 'primitive'

    def by_name(self, name, opt):
        r = [n for n in self.nodes.values() if n.kind == 'func' and n.name == name]
        if not r:
            self.report.add((None, 0, 0), 'warning',
                            '%s %s: no such function in the analysed files' % (opt, name))
        return r

    # ----------------------------------------------------------- the walk

    def visit(self, n, ctx):
        an, K = self.an, self.K
        stack = [(n, ctx)]
        while stack:
            n, ctx = stack.pop()
            k = n.kind
            if k == K.CXX_UNARY_EXPR:          # sizeof, _Alignof: not evaluated
                continue
            kids = list(n.get_children())
            if k == K.IF_STMT and ctx is not None:
                sb = an.spawn_body(n)
                if sb is not None:
                    stack.append((sb, (self.spawn_node(n, ctx), False)))
                    continue
                ls = an.linked_sched(n)
                if ls is not None:
                    cond, _, body = ls
                    owner, det = ctx
                    cargs = list(cond.get_children())[1:]
                    detached = not (cargs and self.is_null(cargs[0]))
                    self.edge(owner, self.special_node('cpc_linked'), self.loc(n), det,
                              text='cpc_linked')
                    for a in cargs:
                        stack.append((a, ctx))
                    stack.append((body, (owner, detached)))
                    continue
            if k in (K.IF_STMT, K.CONDITIONAL_OPERATOR) and len(kids) >= 2:
                self.note_assertion(kids)
            if k == K.CALL_EXPR and kids:
                self.call(n, kids, ctx, stack)
                for a in reversed(kids[1:]):
                    stack.append((a, ctx))
                continue
            if k == K.DECL_REF_EXPR:
                d = n.referenced
                if d is not None and d.kind == K.FUNCTION_DECL:
                    fn = self.fn_node(d)
                    if fn.coro and fn.root is None:
                        fn.root = 'address'
            elif k == K.BINARY_OPERATOR and len(kids) == 2 and \
                    self.fe.binop(n) == self.fe.BO['Assign']:
                l, r = kids
                self.flow(n, self.value_coro(l), r, 'assign', dst=self.desc(l),
                          slot=self.expr_decl(l))
            elif k == K.VAR_DECL:
                ex = [x for x in kids if x.kind.is_expression()]
                if ex:
                    self.init(n, n.type, ex[-1], '`%s`' % n.spelling)
            elif k == K.RETURN_STMT and self.func is not None and kids:
                ft = self.func.type
                if self.is_fnptr(ft.get_result()):
                    self.flow(n, self.type_has(ft.get_result(), 'coro'), kids[0], 'return',
                              dst='`%s`' % self.func.spelling)
            elif k == K.CSTYLE_CAST_EXPR:
                ex = [x for x in kids if x.kind.is_expression()]
                if ex and self.is_fnptr(n.type):
                    self.flow(n, self.type_has(n.type, 'coro'), ex[-1], 'cast',
                              dst='`%s`' % self.type_str(n.type))
            elif k == K.CONDITIONAL_OPERATOR and len(kids) == 3:
                a, b = kids[1], kids[2]
                if self.is_fnptr(a.type) and self.is_fnptr(b.type):
                    ca, cb = self.value_coro(a), self.value_coro(b)
                    if ca != cb:
                        self.err(n, 'the arms of `?:` mix %s `%s` and %s `%s` '
                                 '[annotation-cast]' % (
                                     self.ann(ca), self.src(self.unit, a),
                                     self.ann(cb), self.src(self.unit, b)))
            for x in reversed(kids):
                stack.append((x, ctx))

    def noreturn_call(self, e):
        """e is (a statement or expression that is only) a call to a
        function that does not return: __assert_fail, abort, ..."""
        K, an = self.K, self.an
        for _ in range(8):
            if e.kind == K.COMPOUND_STMT:
                ch = list(e.get_children())
                if len(ch) != 1:
                    return False
                e = ch[0]
                continue
            s = an.strip(e)
            while s.kind in (K.CSTYLE_CAST_EXPR, K.PAREN_EXPR):
                s = an.strip(list(s.get_children())[-1])
            if s.kind != K.CALL_EXPR:
                return False
            d = an.callee_decl(s)
            if d is None:
                return False
            if 'noreturn' in d.type.spelling:
                return True
            return any(t.spelling == '_Noreturn' for t in d.get_tokens()
                       if t.location.offset < d.location.offset)
        return False

    def note_assertion(self, kids):
        """An `if` or `?:` with an arm that does not return (assert(), in
        any C library's spelling): its condition is an assertion."""
        cond, arms = kids[0], kids[1:]
        if any(self.noreturn_call(a) for a in arms):
            e = cond.extent
            if e.start.file is not None:
                self.asserted.append((e.start.file.name, e.start.offset, e.end.offset))

    def in_assertion(self, c):
        e = c.extent
        if e.start.file is None:
            return False
        f, a, b = e.start.file.name, e.start.offset, e.end.offset
        return any(f == g and x <= a and b <= y for (g, x, y) in self.asserted)

    def is_null(self, e):
        e = self.an.strip(e)
        while e.kind in (self.K.CSTYLE_CAST_EXPR, self.K.PAREN_EXPR):
            e = self.an.strip(list(e.get_children())[-1])
        if e.kind == self.K.INTEGER_LITERAL:
            toks = [t.spelling for t in e.get_tokens()]
            return toks in (['0'], [])
        return False

    def spawn_node(self, stmt, ctx):
        owner = ctx[0]
        f, line, col = self.loc(stmt)
        n = Node('spawn:%s:%d:%d' % (f, line, col), 'cpc_spawn@%s:%d' % (
            os.path.basename(f or '?'), line), 'spawn')
        n.coro = True
        n.local = True
        n.owner = owner
        n.loc = (f, line, col)
        self.nodes[n.key] = n
        self.edge(owner, n, (f, line, col), ctx[1], kind='spawn')
        return n

    def edge(self, src, dst, loc, detached, kind='call', text=None):
        if src is None:
            return None
        e = Edge(src, dst, loc, detached, kind, text)
        src.calls.append(e)
        return e

    def call(self, call, kids, ctx, stack):
        an, K = self.an, self.K
        d = an.callee_decl(call)
        owner, det = ctx if ctx is not None else (None, False)
        callee = kids[0]
        if d is not None:
            node = self.fn_node(d)
            params = list(d.get_arguments())
            name = d.spelling
        else:
            node = None
            text = self.src(self.unit, callee)
            coro = self.value_coro(callee)
            block = self.value_has(callee, 'block')
            if coro or block:
                node = self.ptr_node(text, coro, block)
            params = []
            name = text
            stack.append((callee, ctx))
        if node is not None and owner is not None and owner.kind == 'spawn' and \
                node.coro and node.root is None:
            node.root = 'spawned'
        if node is not None and owner is not None and node.need_cont:
            owner.uses_cont = True
        if node is not None:
            e = self.edge(owner, node, self.loc(call), det,
                          text=None if node.kind == 'func' else self.src(self.unit, callee))
            if e is not None and node.name in self.opts.hybrid:
                e.asserted = self.in_assertion(call)
        # arguments flowing into annotated (or plain) function pointer parameters
        ft = self.fe.function_type_of(callee.type)
        ptypes = []
        if ft is not None and self.fe.tkind(ft) == self.fe.TK_FUNCTIONPROTO:
            ptypes = list(ft.argument_types())
        for i, a in enumerate(kids[1:]):
            if i < len(params):
                p = params[i]
                if self.is_fnptr(p.type):
                    self.flow(a, self.decl_has(p, 'coro'), a, 'arg',
                              dst='argument %d of `%s`' % (i + 1, name), slot=p)
            elif i < len(ptypes) and self.is_fnptr(ptypes[i]):
                self.flow(a, self.type_has(ptypes[i], 'coro'), a, 'arg',
                          dst='argument %d of `%s`' % (i + 1, name))

    def init(self, at, t, e, dst, decl=None):
        """Initialiser e of an object of type t (declaration `at`)."""
        K, fe = self.K, self.fe
        if e.kind == K.INIT_LIST_EXPR:
            t0, _ = fe.strip_sugar(t)
            tk = fe.tkind(t0)
            fields = list(t0.get_fields()) if tk == fe.TK_RECORD else []
            idx = 0
            for x in e.get_children():
                ch = list(x.get_children())
                if x.kind == K.UNEXPOSED_EXPR and len(ch) >= 2 and \
                        ch[0].kind == K.MEMBER_REF:
                    f = ch[0].referenced
                    for i, g in enumerate(fields):
                        if g.spelling == ch[0].spelling:
                            idx = i
                            f = g
                    if f is not None:
                        self.init(x, f.type, ch[-1], '`.%s`' % f.spelling, decl=f)
                    idx += 1
                    continue
                if x.kind == K.UNEXPOSED_EXPR and len(ch) >= 2 and \
                        tk in (fe.TK_CONSTANTARRAY, fe.TK_INCOMPLETEARRAY):
                    self.init(x, t0.element_type, ch[-1], dst, decl=decl)
                    idx += 1
                    continue
                if tk in (fe.TK_CONSTANTARRAY, fe.TK_INCOMPLETEARRAY, fe.TK_VARIABLEARRAY):
                    self.init(x, t0.element_type, x, dst, decl=decl)
                elif fields and idx < len(fields):
                    f = fields[idx]
                    self.init(x, f.type, x, '`.%s`' % f.spelling, decl=f)
                idx += 1
            return
        if not e.kind.is_expression():
            return
        if not self.is_fnptr(t):
            return
        if decl is None and at.kind in (K.VAR_DECL, K.FIELD_DECL):
            decl = at
        dc = self.decl_has(decl, 'coro') if decl is not None else self.type_has(t, 'coro')
        self.flow(e, dc, e, 'init', dst=dst, slot=decl)

    # -------------------------------------------------- pointer flow check

    def ann(self, c):
        return self.coro_name if c else 'non-' + self.coro_name

    def type_str(self, t):
        s = re.sub(r'\s*__attribute__\(\(btf_type_tag\("cpc_cps"\)\)\)', ' cps', t.spelling)
        s = re.sub(r'__attribute__\(\(btf_type_tag\("([^"]*)"\)\)\)', r'\1', s)
        return re.sub(r'\s+', ' ', s).strip()

    def desc(self, e):
        return '`%s`' % self.src(self.unit, e)

    def expr_decl(self, e):
        """The declaration an expression designates (a function, variable,
        parameter or field), through parentheses, &, * and subscripts."""
        K, an = self.K, self.an
        for _ in range(32):
            e = an.strip(e)
            k = e.kind
            if k in (K.DECL_REF_EXPR, K.MEMBER_REF_EXPR):
                return e.referenced
            if k == K.UNARY_OPERATOR:
                op = self.fe.unop(e)
                if op in (self.fe.UO['AddrOf'], self.fe.UO['Deref']):
                    e = list(e.get_children())[0]
                    continue
                return None
            if k == K.ARRAY_SUBSCRIPT_EXPR:
                e = list(e.get_children())[0]
                continue
            return None
        return None

    def value_has(self, e, which):
        K = self.K
        s = self.an.strip(e)
        if s.kind == K.CSTYLE_CAST_EXPR:
            return self.type_has(s.type, which)
        if s.kind == K.CONDITIONAL_OPERATOR:
            ch = list(s.get_children())
            if len(ch) == 3:
                return self.value_has(ch[1], which) or self.value_has(ch[2], which)
        d = self.expr_decl(s)
        if d is not None:
            if d.kind == K.FUNCTION_DECL:
                n = self.fn_node(d)
                return n.coro if which == 'coro' else n.block
            if d.kind in (K.VAR_DECL, K.PARM_DECL, K.FIELD_DECL):
                return self.decl_has(d, which)
        return self.type_has(s.type, which)

    def value_coro(self, e):
        return self.value_has(e, 'coro')

    def flow(self, at, dst_coro, src, what, dst, slot=None):
        """A function pointer value src flows into a slot annotated
        dst_coro (described by dst; `slot`, its declaration when known)."""
        s = self.an.strip(src)
        if not self.is_fnptr(src.type) or not self.is_fnptr(s.type):
            return
        if s.kind == self.K.CONDITIONAL_OPERATOR:
            ch = list(s.get_children())
            if len(ch) == 3 and self.value_coro(ch[1]) != self.value_coro(ch[2]):
                return           # reported on the `?:` itself
        if not dst_coro:
            self.note_native_flow(s, slot)
        else:
            # a function stored where a cooperative one is expected must be
            # one (--fix annotates it; it is then a root, stored in a pointer)
            d = self.expr_decl(s)
            if d is not None and d.kind == self.K.FUNCTION_DECL:
                self.stored_in_coro.add(self.fn_node(d).key)
        sc = self.value_coro(src)
        if sc == bool(dst_coro):
            return
        sd = '%s `%s`' % (self.ann(sc), self.src(self.unit, src))
        dd = '%s %s' % (self.ann(dst_coro), dst)
        if what == 'assign':
            msg = 'assigning %s to %s' % (sd, dd)
        elif what == 'init':
            msg = 'initialising %s with %s' % (dd, sd)
        elif what == 'arg':
            msg = 'passing %s as %s, which is %s' % (sd, dst, self.ann(dst_coro))
        elif what == 'return':
            msg = 'returning %s from %s, whose result is %s' % (sd, dst, self.ann(dst_coro))
        else:
            msg = 'cast of %s to %s type %s' % (sd, self.ann(dst_coro), dst)
        msg += ' (%s the %s annotation) [annotation-cast]' % (
            'loses' if sc else 'adds', self.coro_name)
        self.err(at, msg)
        ident = self.slot_ident(slot) if sc else None
        if ident is not None:
            self.slots_to_annotate.append((ident, self.annotated_by(slot)))

    def annotated_by(self, slot):
        """Where slot's annotation is written: the slot's declaration, or
        the program's typedef that names its pointer type (`cfunc_t cfunc;`:
        the cps tag goes on the function type, which the typedef spells)."""
        fe = self.fe
        t = slot.type
        for _ in range(8):
            k = fe.tkind(t)
            if k == fe.TK_ELABORATED:
                t = t.get_named_type()
            elif k == fe.TK_TYPEDEF:
                d = t.get_declaration()
                if d is not None and d.kind == self.K.TYPEDEF_DECL and \
                        self.user_decl(d) is not None:
                    return DeclPos(d)
                break
            else:
                break
        return DeclPos(slot)

    # A function pointer that reaches native code it cannot change (a system
    # header's parameter: pthread_create's start routine; a cast; a call
    # through an unannotated pointer) must stay native, and so must a user
    # slot whose value goes there (QEMU's qemu_thread_create passes its
    # parameter to pthread_create).  A function stored in such a slot is
    # native by that use: inference does not make it cooperative, and
    # --fix does not annotate the slot.  Another native slot (a struct field
    # of the program's own) is one --fix may annotate instead.

    def user_decl(self, d):
        """(file, offset) of declaration d when the program's own files hold
        it (not a system header, not CPC's), else None."""
        if d is None or self.is_system(d) or d.location.file is None or \
                not self.user_file(d.location.file.name):
            return None
        return (d.location.file.name, d.location.offset)

    def slot_ident(self, d):
        """The identity of a function pointer slot of the program's own
        (variable, parameter, field), or None."""
        if d is None or d.kind not in (self.K.VAR_DECL, self.K.PARM_DECL, self.K.FIELD_DECL):
            return None
        return self.user_decl(d)

    def note_native_flow(self, value, slot):
        """Function pointer `value` goes into native slot `slot` (None: a
        destination with no declaration of the program's)."""
        d = self.expr_decl(value)
        if d is None:
            return
        if d.kind == self.K.FUNCTION_DECL:
            src = ('func', self.fn_node(d).key)
        else:
            i = self.slot_ident(d)
            if i is None:
                return
            src = ('slot', i)
        dst = self.slot_ident(slot)
        self.native_flows.append((src, ('slot', dst) if dst is not None else ('native',)))

    def native_by_use(self):
        """The slots whose values reach native code that cannot change,
        and the functions stored in them (Node.native_use)."""
        bound = set()
        changed = True
        while changed:
            changed = False
            for src, dst in self.native_flows:
                if src[0] == 'slot' and src[1] not in bound and \
                        (dst[0] == 'native' or dst[1] in bound):
                    bound.add(src[1])
                    changed = True
        for src, dst in self.native_flows:
            if src[0] == 'func' and (dst[0] == 'native' or dst[1] in bound):
                self.nodes[src[1]].native_use = True
        self.native_slots = bound

    def err(self, cursor, msg):
        self.report.add(self.loc(cursor), 'error', msg)

    # ------------------------------------------------------------ analysis

    def infer(self):
        """Least fixed point: a node is cooperative if it is annotated and
        not analysed here (trusted), a root, or calls a cooperative node."""
        callers = {}
        for n in self.nodes.values():
            for e in n.calls:
                if e.kind == 'call':
                    callers.setdefault(e.dst.key, []).append(e)
        work = []
        for n in self.nodes.values():
            if n.kind in ('ptr', 'linked', 'spawn'):
                n.inferred = n.coro or n.kind == 'spawn'
            elif not n.local:
                n.inferred = n.coro
            elif n.root in ('primitive', 'entry') or (n.root and n.coro):
                n.inferred = True
            if n.inferred:
                work.append(n)
        while work:
            n = work.pop()
            for e in callers.get(n.key, ()):
                c = e.src
                if c.kind == 'spawn' or c.inferred:
                    continue
                if not c.local or c.root == 'native' or (c.native_use and not c.coro):
                    continue
                c.inferred = True
                c.why = e
                work.append(c)

    def coop_context(self, n):
        return n.kind == 'spawn' or n.coro or n.inferred

    def check(self):
        R = self.report
        cn, bn = self.coro_name, self.block_name
        for n in sorted(self.nodes.values(), key=lambda x: x.key):
            if n.kind == 'func' and n.local:
                where = n.defn_loc
                if n.coro and n.block:
                    R.add(where, 'error', '`%s` is annotated both %s and %s '
                          '[conflicting-annotation]' % (n.name, cn, bn))
                if n.coro and not n.inferred and not n.uses_cont and \
                        not self.opts.no_spurious:
                    R.add(where, 'warning', '`%s` is annotated %s but calls no %s '
                          'function [spurious-annotation]' % (n.name, cn, cn))
                # a test that only asserts (assert(qemu_in_coroutine())) picks
                # no code path
                hyb = sorted(set(e.dst.name for e in n.calls
                                 if e.dst.kind == 'func' and e.dst.name in self.opts.hybrid
                                 and not e.asserted))
                if hyb:
                    R.add(where, 'warning', '`%s` is a hybrid function (it tests %s): split '
                          'it into a %s and a native version [hybrid-function]' % (
                              n.name, ', '.join('`%s()`' % h for h in hyb), cn))
                if n.inferred and not n.coro and n.why is not None and \
                        not n.why.dst.coro:
                    # not annotated, and calls no annotated function itself
                    # (that call is an error below) but one that must be
                    R.add(where, 'warning', '`%s` must be annotated %s: it calls %s '
                          '[missing-annotation]' % (n.name, cn, self.chain_text(n)))
                if n.root == 'entry' and not n.coro:
                    R.add(where, 'error', 'entry point `%s` must be annotated %s '
                          '[missing-annotation]' % (n.name, cn))
                # declarations that disagree (the translator rejects them)
                if n.coro and n.kind == 'func':
                    for (loc, sp, system, ident, d) in n.decl_locs:
                        if not sp and not system and self.user_file(loc[0]) and \
                                n.coro_at is not None and loc != n.coro_at:
                            # the translator rejects these for cps
                            sev = 'error' if 'cps' in self.names['coro'] else 'warning'
                            R.add(loc, sev, 'declaration of `%s` lacks the %s '
                                  'annotation given at %s:%d:%d [inconsistent-annotation]' % (
                                      n.name, cn, n.coro_at[0], n.coro_at[1], n.coro_at[2]))
            for e in n.calls:
                if e.kind != 'call':
                    continue
                d = e.dst
                src_coop = self.coop_context(n)
                if d.coro and not n.coro and n.kind == 'func':
                    e.bad = True
                    if d.kind == 'func':
                        what = '%s function `%s`' % (cn, d.name)
                    elif d.kind == 'linked':
                        what = '`%s` (cps context only)' % d.name
                    else:
                        what = '%s function pointer `%s`' % (cn, d.name)
                    extra = ' (marked %s)' % bn if n.block else ''
                    if n.root == 'native':
                        fix = '`%s` stays native: run the call in a new thread or ' \
                            'coroutine (cpc_spawn)' % n.name
                    elif n.native_use:
                        fix = '`%s` stays native (its address is used as a native ' \
                            'function pointer): run the call in a new thread or ' \
                            'coroutine (cpc_spawn)' % n.name
                    else:
                        fix = 'annotate `%s` with %s' % (n.name, cn)
                    R.add(e.loc, 'error', 'call to %s from non-%s function `%s`%s; '
                          '%s [missing-annotation]' % (what, cn, n.name, extra, fix))
                if d.block and src_coop and not e.detached:
                    e.bad = True
                    what = 'function' if d.kind == 'func' else 'function pointer'
                    if n.kind == 'spawn':
                        frm = 'a cpc_spawn statement in `%s`' % n.owner.name
                    elif n.coro:
                        frm = '%s function `%s`' % (cn, n.name)
                    else:
                        frm = 'function `%s`, which must be %s' % (n.name, cn)
                    R.add(e.loc, 'error', 'call to %s %s `%s` from %s [blocking-call]' % (
                        bn, what, d.name, frm))

    def chain_text(self, n):
        """`g`, which must be annotated (it calls `h`, which calls `coro`):
        the calls that make n cooperative, up to an annotated function."""
        names = []
        seen = set()
        m = n
        while m is not None and m.why is not None and m.key not in seen:
            seen.add(m.key)
            m = m.why.dst
            names.append(m.name)
            if m.coro:
                break
        text = '`%s`, which must be too' % names[0]
        if len(names) > 1:
            text += ' (%s)' % ' -> '.join('`%s`' % x for x in names)
        return text

    def missing(self):
        return sorted((n for n in self.nodes.values()
                       if n.kind == 'func' and n.local and n.inferred and not n.coro),
                      key=lambda n: n.defn_loc)

    # ------------------------------------------------------------- output

    def infer_output(self, fmt):
        miss = self.missing()
        out = []
        if fmt == 'list':
            out = [n.name for n in miss]
        elif fmt == 'patch':
            out = self.patch(miss)
        else:
            for n in miss:
                f, line, col = n.defn_loc
                chain = []
                m = n
                seen = set()
                while m is not None and m.why is not None and m.key not in seen:
                    seen.add(m.key)
                    chain.append(m.why.dst.name)
                    m = m.why.dst
                    if m.coro:
                        break
                reason = ''
                if chain:
                    reason = ' (calls %s)' % ' -> '.join('`%s`' % x for x in chain)
                elif n.root == 'entry':
                    reason = ' (entry point)'
                out.append('%s:%d:%d: note: `%s` must be annotated %s%s' % (
                    f, line, col, n.name, self.coro_name, reason))
            # native functions (main, --native) that call what must be cooperative
            for n in sorted(self.nodes.values(), key=lambda n: n.key):
                if n.kind != 'func' or not n.local or not (
                        n.root == 'native' or (n.native_use and not n.coro)):
                    continue
                for e in n.calls:
                    d = e.dst
                    if e.kind == 'call' and d.inferred and not d.coro and d.local:
                        f, line, col = e.loc
                        out.append('%s:%d:%d: note: `%s` stays native but calls `%s`, which '
                                   'must be %s: run it in a new thread or coroutine' % (
                                       f, line, col, n.name, d.name, self.coro_name))
        return out, bool(miss)

    def patch(self, miss):
        from cpc_check_fix import insertion_point
        edits = {}
        for n in miss:
            for (loc, sp, system, ident, d) in n.decl_locs:
                fname, off = ident
                if system or fname is None or sp:
                    continue
                if self.cpc_header(fname):
                    continue
                text = self.file_text(fname) if fname not in self.main_paths else \
                    self.disk_text(fname)
                pos = insertion_point(d, text)
                if pos is None:
                    continue
                edits.setdefault(fname, set()).add(pos)
        out = []
        for fname in sorted(edits, key=lambda f: (f not in self.main_paths, f)):
            text = self.disk_text(fname)
            new = text
            for pos in sorted(edits[fname], reverse=True):
                new = new[:pos] + self.coro_name.encode() + b' ' + new[pos:]
            a = text.decode('utf-8', 'replace').splitlines(True)
            b = new.decode('utf-8', 'replace').splitlines(True)
            for l in difflib.unified_diff(a, b, fname, fname):
                out.append(l if l.endswith('\n') else l + '\n\\ No newline at end of file\n')
        return [l.rstrip('\n') for l in ''.join(out).splitlines()]

    def disk_text(self, fname):
        try:
            with open(fname, 'rb') as fh:
                return fh.read()
        except OSError:
            return b''

    def dot(self):
        """The annotated call graph (native functions defined outside the
        analysed files are left out, as in CoroCheck)."""
        cn, bn = self.coro_name, self.block_name
        keep = [n for n in self.nodes.values() if self.shown(n)]
        keep_keys = set(n.key for n in keep)
        ids = {}
        used = {}
        for n in sorted(keep, key=lambda n: (n.name, n.key)):
            base = n.name if n.kind != 'ptr' else '*' + n.name
            i = base
            k = 2
            while i in used:
                i = '%s#%d' % (base, k)
                k += 1
            used[i] = True
            ids[n.key] = i

        def q(s):
            return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"').replace('\n', '\\n')
        lines = ['digraph "cpc-check" {',
                 '  node [fontname="Helvetica"];',
                 '  edge [fontname="Helvetica"];']
        for n in sorted(keep, key=lambda n: ids[n.key]):
            attrs = []
            label = n.name if n.kind != 'ptr' else '*' + n.name
            anns = []
            if n.coro and n.kind in ('func', 'ptr'):
                anns.append(cn)
            if n.block:
                anns.append(bn)
            if anns:
                label += '\n' + ' '.join(anns)
            coop = n.inferred or n.kind == 'spawn'
            if n.kind == 'spawn':
                attrs.append('shape=box')
                style = ['rounded']
            elif coop:
                attrs.append('shape=box')
                style = []
            elif n.block:
                attrs.append('shape=octagon')
                style = []
            else:
                attrs.append('shape=ellipse')
                style = []
            # (an annotated function that uses its continuation is not
            # spurious: see check())
            mismatch = n.kind == 'func' and n.local and (
                (n.coro != n.inferred and not (n.coro and n.uses_cont)) or
                (n.coro and n.block))
            if mismatch:
                style.append('dashed')
                attrs.append('color=red')
            if n.block and not mismatch:
                style.append('filled')
                attrs.append('fillcolor=lightgrey')
            if style:
                attrs.append('style="%s"' % ','.join(style))
            attrs.insert(0, 'label=%s' % q(label))
            lines.append('  %s [%s];' % (q(ids[n.key]), ', '.join(attrs)))
        edges = {}
        for n in keep:
            for e in n.calls:
                if e.dst.key not in keep_keys:
                    continue
                k = (ids[n.key], ids[e.dst.key])
                edges[k] = edges.get(k, '') or ('spawn' if e.kind == 'spawn' else '')
                if e.bad:
                    edges[k] = 'bad'
        for (a, b), how in sorted(edges.items()):
            attrs = ''
            if how == 'spawn':
                attrs = ' [style=dotted, label="spawn"]'
            elif how == 'bad':
                attrs = ' [color=red, style=dashed]'
            lines.append('  %s -> %s%s;' % (q(a), q(b), attrs))
        lines.append('}')
        return lines

    def shown(self, n):
        if n.kind == 'spawn' or (n.kind == 'func' and n.local):
            return True
        if not (n.coro or n.block):
            return False       # native functions defined elsewhere
        return n.key in self.called

    def dot_lines(self):
        self.called = set(e.dst.key for n in self.nodes.values()
                          if n.kind == 'spawn' or n.local for e in n.calls)
        return self.dot()


# --------------------------------------------------------------------------
# Command line


def parse_args(argv):
    if '--' in argv:
        i = argv.index('--')
        argv, clang = argv[:i], argv[i + 1:]
    else:
        clang = []
    p = argparse.ArgumentParser(
        prog='cpc-check',
        description='Check and infer cooperation annotations (cps / coroutine_fn, '
        'blocking_fn) on C and CPC files.',
        epilog='Arguments after `--` go to Clang (-I, -D, -std=...).  Exit status: 0 clean, '
        '1 errors found (with --infer: annotations to add), 2 usage or parse error.')
    p.add_argument('files', nargs='*', metavar='FILE', help='C or CPC source files '
                   '(with -p: the files of the compilation database to analyse; '
                   'default all of them)')
    p.add_argument('-p', dest='build_dir', metavar='BUILD_DIR',
                   help='analyse the project of BUILD_DIR/compile_commands.json, each '
                   'file with its own flags (-I, -D, -U, -include, -std=, ...)')
    p.add_argument('--coroutine-attr', action='append', metavar='NAME',
                   help='name of the cooperative annotation (default: cps; repeatable)')
    p.add_argument('--blocking-attr', action='append', metavar='NAME',
                   help='name of the blocking annotation (default: blocking_fn; repeatable)')
    p.add_argument('--primitive', action='append', default=[], metavar='FUNC',
                   help='a cooperative primitive defined in the files (never spurious)')
    p.add_argument('--entry', action='append', default=[], metavar='FUNC',
                   help='a coroutine entry point: must be annotated')
    p.add_argument('--native', action='append', default=[], metavar='FUNC',
                   help='a function that stays native (inference does not propagate '
                   'through it; `main` always does)')
    # `--infer` alone means notes; `--infer FMT` and `--infer=FMT` choose
    argv = ['--infer=notes' if a == '--infer' and (i + 1 == len(argv) or argv[i + 1] not in
                                                   ('notes', 'list', 'patch')) else a
            for i, a in enumerate(argv)]
    p.add_argument('--hybrid', action='append', metavar='FUNC',
                   help='a function that tests for coroutine context; its callers are '
                   'reported as hybrid (default: qemu_in_coroutine)')
    p.add_argument('--infer', choices=('notes', 'list', 'patch'),
                   help='print the functions that must be annotated (fixed point), '
                   'as notes (default), a list of names or a patch')
    p.add_argument('--fix', action='store_true',
                   help='write the annotations inference decides into the files and their '
                   'user headers (add the missing ones, mend declarations that disagree, '
                   'annotate pointer slots that hold cooperative functions, remove spurious '
                   'ones), again until nothing changes')
    p.add_argument('--dot', metavar='FILE', help='write the annotated call graph '
                   '(Graphviz dot) to FILE (`-` for stdout)')
    p.add_argument('--no-spurious', action='store_true',
                   help='do not warn about spurious annotations')
    p.add_argument('-w', dest='no_warnings', action='store_true', help='no warnings')
    p.add_argument('--werror', action='store_true', help='warnings count as errors')
    p.add_argument('-q', '--quiet', action='store_true',
                   help='no diagnostics (exit status and --infer/--dot output only)')
    p.add_argument('-I', dest='incdirs', action='append', default=[], metavar='DIR')
    p.add_argument('-D', dest='defines', action='append', default=[], metavar='NAME[=VAL]')
    p.add_argument('-U', dest='undefs', action='append', default=[], metavar='NAME')
    o = p.parse_args(argv)
    o.coroutine_attr = o.coroutine_attr or ['cps']
    o.blocking_attr = o.blocking_attr or ['blocking_fn']
    o.hybrid = set(o.hybrid or ['qemu_in_coroutine'])
    for n in o.coroutine_attr + o.blocking_attr:
        if not re.match(r'^[A-Za-z_][A-Za-z0-9_]*$', n):
            p.error('not an attribute name: %r' % n)
    o.clang = ['-I' + d for d in o.incdirs] + ['-D' + d for d in o.defines] + \
        ['-U' + d for d in o.undefs] + clang
    return o


# flags of a compile command that change how a file parses; those with a
# path argument are made absolute against the command's directory
DB_PATH_FLAGS = ('-I', '-isystem', '-iquote', '-idirafter', '-include', '-imacros')
DB_FLAGS = ('-D', '-U') + DB_PATH_FLAGS


def compile_command_args(entry):
    """The Clang arguments of one compile_commands.json entry."""
    import shlex
    if 'arguments' in entry:
        argv = list(entry['arguments'])
    else:
        argv = shlex.split(entry.get('command', ''))
    d = entry.get('directory', '.')
    out = []
    i = 1
    while i < len(argv):
        a = argv[i]
        flag = next((f for f in DB_FLAGS if a == f or (a.startswith(f) and f in ('-D', '-U', '-I'))), None)
        if a.startswith('-std='):
            out.append(a)
        elif flag is not None:
            if a == flag:
                if i + 1 >= len(argv):
                    break
                val = argv[i + 1]
                i += 1
            else:
                val = a[len(flag):]
            if flag in DB_PATH_FLAGS and not os.path.isabs(val):
                val = os.path.normpath(os.path.join(d, val))
            out += [flag, val] if flag not in ('-D', '-U', '-I') else [flag + val]
        i += 1
    return out


# Written beside compile_commands.json by CPC's CMake package for the
# Makefile generators, which write no compile commands for the .cpc files.
CPC_DATABASE = 'cpc_compile_commands.json'


def read_database(path):
    import json
    try:
        with open(path) as fh:
            db = json.load(fh)
    except OSError as e:
        raise UsageError('cannot read %s: %s' % (path, e.strerror))
    except ValueError as e:
        raise UsageError('%s is not valid JSON: %s' % (path, e))
    if not isinstance(db, list):
        raise UsageError('%s: expected a list of compile commands' % path)
    return db


def compilation_database(build_dir, extra):
    """{absolute source path: clang args} from BUILD_DIR/compile_commands.json
    and, when there is one, BUILD_DIR/cpc_compile_commands.json (the last
    command of a file wins), `extra` (the command line's -I, -D and
    arguments after `--`) appended to every file's."""
    path = os.path.join(build_dir, 'compile_commands.json')
    cpc_path = os.path.join(build_dir, CPC_DATABASE)
    db = read_database(path) if os.path.exists(path) or not os.path.exists(cpc_path) else []
    if os.path.exists(cpc_path):
        db += read_database(cpc_path)
    out = {}
    for entry in db:
        if not isinstance(entry, dict) or 'file' not in entry:
            raise UsageError('%s: an entry without "file"' % path)
        f = entry['file']
        if not os.path.isabs(f):
            f = os.path.join(entry.get('directory', '.'), f)
        f = os.path.normpath(f)
        if not f.endswith(('.c', '.cpc', '.h')):
            continue
        rel = os.path.relpath(f)
        if not rel.startswith('..'):
            f = rel             # shorter messages for files under the cwd
        out[f] = compile_command_args(entry) + list(extra)
    if not out:
        raise UsageError('%s lists no C or CPC file' % path)
    return out


def run(argv):
    opts = parse_args(argv)
    try:
        ck = Checker(opts)
    except ImportError as e:
        sys.stderr.write('cpc-check: error: cannot load the CPC front-end: %s\n' % e)
        return 2
    per_file = None
    if opts.build_dir is not None:
        try:
            per_file = compilation_database(opts.build_dir, opts.clang)
        except UsageError as e:
            sys.stderr.write('cpc-check: error: %s\n' % e)
            return 2
        if opts.files:
            known = {os.path.realpath(f): f for f in per_file}
            files = []
            for f in opts.files:
                r = known.get(os.path.realpath(f))
                if r is None:
                    sys.stderr.write('cpc-check: error: %s is not in %s\n' % (
                        f, os.path.join(opts.build_dir, 'compile_commands.json')))
                    return 2
                files.append(r)
            opts.files = files
        else:
            opts.files = list(per_file)
    elif not opts.files:
        sys.stderr.write('cpc-check: error: no input files (give FILE... or -p BUILD_DIR)\n')
        return 2
    if not ck.parse_all(opts.files, opts.clang, per_file):
        return 2
    ck.build()
    ck.infer()
    ck.check()
    if opts.fix:
        ck = fix_until_stable(ck, opts, per_file)
        if ck is None:
            return 2
    order = {f: i for i, f in enumerate(opts.files)}
    R = ck.report
    if opts.no_warnings:
        R.items = [x for x in R.items if x[3] != 'warning']
    if not opts.quiet:
        for l in R.lines(order):
            sys.stderr.write(l + '\n')
    status = 1 if R.count('error') or (opts.werror and R.count('warning')) else 0
    if opts.dot:
        text = '\n'.join(ck.dot_lines()) + '\n'
        if opts.dot == '-':
            sys.stdout.write(text)
        else:
            try:
                with open(opts.dot, 'w') as fh:
                    fh.write(text)
            except OSError as e:
                sys.stderr.write('cpc-check: error: cannot write %s: %s\n' % (opts.dot, e.strerror))
                return 2
    if opts.infer:
        lines, any_missing = ck.infer_output(opts.infer)
        for l in lines:
            sys.stdout.write(l + '\n')
        if any_missing:
            status = 1
    return status


FIX_ROUNDS = 16


def fix_until_stable(ck, opts, per_file):
    """cpc-check --fix: write what inference decides, parse and decide
    again until nothing changes; the checker of the last round."""
    from cpc_check_fix import Fixer
    added = removed = 0
    changed = set()
    for _ in range(FIX_ROUNDS):
        fx = Fixer(ck)
        fx.decide()
        try:
            a, r, files = fx.write()
        except OSError as e:
            sys.stderr.write('cpc-check: --fix: cannot write %s: %s\n' % (
                os.path.normpath(e.filename or '?'), e.strerror))
            return None
        if not files:
            break           # a fixed point: the last round's report is the files'
        added += a
        removed += r
        changed.update(files)
        ck = Checker(opts)
        if not ck.parse_all(opts.files, opts.clang, per_file):
            return None
        ck.build()
        ck.infer()
        ck.check()
    else:
        sys.stderr.write('cpc-check: --fix: annotations still change after %d rounds\n'
                         % FIX_ROUNDS)
    sys.stderr.write('cpc-check: --fix: %d annotation%s added, %d removed, in %d file%s\n' % (
        added, '' if added == 1 else 's', removed, len(changed), '' if len(changed) == 1 else 's'))
    for f in sorted(changed):
        sys.stderr.write('cpc-check: --fix: wrote %s\n' % os.path.normpath(f))
    return ck


def main():
    sys.setrecursionlimit(20000)
    try:
        code = run(sys.argv[1:])
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        code = 1
    except SystemExit:
        raise
    except Exception as e:   # never a traceback for the user
        if os.environ.get('CPC_CHECK_DEBUG'):
            raise
        sys.stderr.write('cpc-check: internal error: %s: %s (set CPC_CHECK_DEBUG=1 for '
                         'the traceback)\n' % (type(e).__name__, e))
        code = 2
    sys.stdout.flush()
    sys.exit(code)


if __name__ == '__main__':
    main()
