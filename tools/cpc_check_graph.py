"""cpc-check: the call graph of the analysed files, built from their parses:
functions, indirect call targets and spawned statements, the calls between
them (and through annotated pointers), assertions and `noreturn` calls.
"""
import os
import sys

from cpc_check_nodes import Edge, Node, Nodes


class Graph(Nodes):
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

    def expansion(self, c):
        """(libclang's file handle, offset) of cursor c's location, where
        a macro is expanded: one C call, no Python objects, to sort the
        thousands of declarations a header brings."""
        import ctypes
        fn = self.__dict__.get('_instantiation')
        if fn is None:
            # a prototype of our own that returns the file handle as a
            # plain address (cindex's wants an object, then a cast)
            ci = self.fe.ci
            fn = ctypes.CDLL(ci.conf.lib._name).clang_getInstantiationLocation
            fn.argtypes = [ci.SourceLocation, ctypes.POINTER(ctypes.c_void_p),
                           ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint)]
            fn.restype = None
            self._instantiation = fn
        f, off = ctypes.c_void_p(), ctypes.c_uint()
        fn(c.location, ctypes.byref(f), None, None, ctypes.byref(off))
        return f.value, off.value

    def build_unit(self, u):
        K = self.K
        self.unit = u
        self.unit_fns = {}      # cursor hash -> node, for this unit
        top = list(u.tu.cursor.get_children())
        handles = {}            # file handle -> name, for this unit
        where = []
        wanted = (K.FUNCTION_DECL, K.VAR_DECL)
        kinds = [c.kind for c in top]
        for c, k in zip(top, kinds):
            if k not in wanted:
                where.append((None, 0))      # types, typedefs: nothing to read
                continue
            h, off = self.expansion(c)
            name = handles.get(h)
            if name is None and h is not None:
                loc = c.location
                name = handles[h] = loc.file.name if loc.file is not None else ''
            where.append((name, off))
        # pass 1: every function declaration of the file and of the
        # (non-system) headers it includes; a header's declarations are
        # registered by the first unit that includes it
        # cpc_spawn and cpc_linked come from the runtime's header: a unit
        # without it has none to look for
        self.keywords = any(h.endswith(os.sep + 'cpc_runtime.h') for h in handles.values())
        for c, k, (name, off) in zip(top, kinds, where):
            if k != K.FUNCTION_DECL or not name:
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
        for c, k, (name, off) in zip(top, kinds, where):
            if name != u.path:
                continue
            if k == K.FUNCTION_DECL and c.is_definition():
                n = self.fn_node(c)
                if n.defn != (u.path, off):
                    continue
                self.func = c
                ctx = (n, False)
                for x in c.get_children():
                    if x.kind == K.COMPOUND_STMT:
                        self.visit(x, ctx)
            elif k == K.VAR_DECL:
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

    def visit(self, n, ctx):
        K = self.K
        stack = [(n, ctx)]
        while stack:
            n, ctx = stack.pop()
            k = n.kind
            if k == K.CXX_UNARY_EXPR:          # sizeof, _Alignof: not evaluated
                continue
            kids = list(n.get_children())
            if k == K.IF_STMT and ctx is not None and self.keywords:
                sb = self.syn.spawn_body(n)
                if sb is not None:
                    stack.append((sb, (self.spawn_node(n, ctx), False)))
                    continue
                ls = self.syn.linked_sched(n)
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
                    fn.address = True
                    if fn.coro and fn.root is None:
                        fn.root = 'address'
            elif k == K.BINARY_OPERATOR and len(kids) == 2 and \
                    self.cur.binop(n) == self.cur.BO['Assign']:
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
        K = self.K
        for _ in range(8):
            if e.kind == K.COMPOUND_STMT:
                ch = list(e.get_children())
                if len(ch) != 1:
                    return False
                e = ch[0]
                continue
            s = self.syn.strip(e)
            while s.kind in (K.CSTYLE_CAST_EXPR, K.PAREN_EXPR):
                s = self.syn.strip(list(s.get_children())[-1])
            if s.kind != K.CALL_EXPR:
                return False
            d = self.syn.callee_decl(s)
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
        e = self.syn.strip(e)
        while e.kind in (self.K.CSTYLE_CAST_EXPR, self.K.PAREN_EXPR):
            e = self.syn.strip(list(e.get_children())[-1])
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
        K = self.K
        d = self.syn.callee_decl(call)
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
            else:
                # a call through a native slot of the program's own (a
                # struct field, variable or parameter): cooperative when a
                # function stored in it must be (Checker.infer)
                node = self.slot_node(self.expr_decl(callee))
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
        ft = self.ty.function_type_of(callee.type)
        ptypes = []
        if ft is not None and self.ty.tkind(ft) == self.ty.TK_FUNCTIONPROTO:
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
