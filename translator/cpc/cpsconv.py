"""CPS conversion and emission of the generated C.

Invariant: on a prepared, normalised and boxed unit, `emit(u)` returns C
source (for the header's C mode) equivalent to the CPC program, in the shape
of docs/abi.md: each cps function f becomes `f__cps(k, params)` (budget
check, bounce frame `struct f__args` and `f__bounce`) and, when it has
resume points, a static `f__body(k, cpc_resume, params)` that dispatches to
the label `f__resumed_N` after call N, keeping the user's statements; each
non-tail cps call evaluates its arguments into temporaries, pushes
`struct f__frame_N` with the lifted variables and `f__resume_N`, and returns
`g__cps(k, ...)`; the resume point pops the frame, restores the variables
and reads the result.  `return v;` becomes cpc_return.  Spawns of calls
become a fresh continuation holding the arguments and a per-site thunk.
Calls to cpc_need_cont functions get `k` (NULL in native code) first.
Everything else is copied byte for byte; `#line` directives keep gcc's
messages on the .cpc file.
"""
from . import frontend as fe
from . import analysis as an
from . import ctype
from . import rewrite as rw
from .split import split, callee_result
from .lift import Lifting
from .prepare import function_defs

K = fe.K

# Optional-argument primitives: C parameter list after k: (type, default).
PRIMITIVES = {
    'cpc_wait': [('cpc_condvar *', None), ('int', '-1'), ('int', '0')],
    'cpc_sleep': [('int', None), ('int', '0'), ('cpc_condvar *', 'NULL')],
    'cpc_io_wait': [('int', None), ('int', None), ('cpc_condvar *', 'NULL')],
}
HEADER_CPS = {'cpc_yield', 'cpc_done', 'cpc_wait', 'cpc_sleep', 'cpc_io_wait', 'cpc_link'}


def zero(t):
    if ctype.is_scalar(t):
        return '0'
    try:
        return '(%s){0}' % ctype.declare(t, '', strip_const=True)
    except ctype.Unnameable:
        return '0'


def param_decls(func_cursor):
    ps = []
    for p in an.kids(func_cursor):
        if p.kind == K.PARM_DECL:
            name = p.spelling
            ps.append((name, p.type))
    return ps


class Emitter:
    def __init__(self, u):
        self.u = u
        self.edits = []
        self.declared_cps = {}   # name -> offset where its __cps prototype is emitted
        self.path = u.path

    def diag(self, c, msg):
        return self.u.diag(c, msg)

    def text(self, a, b, small):
        return rw.rebuild(self.u, a, b, [e for e in small if a <= e[0] and e[1] <= b])

    def ctext(self, c, small):
        return self.text(c.extent.start.offset, c.extent.end.offset, small)

    # -- need_cont calls
    def need_cont_edits(self, f, kexpr):
        out = []
        for call in f.need_cont_calls:
            callee = an.callee_of(call)
            j = rw.skip_space(self.u.text, callee.extent.end.offset)
            if self.u.text[j:j + 1] != b'(':
                continue
            args = an.args_of(call)
            out.append((j + 1, j + 1, kexpr + (', ' if args else '')))
        return out

    # -- prototypes
    def cps_proto(self, decl, storage=None, names=True):
        ps = []
        ft = fe.strip_sugar(decl.type)[0]
        params = param_decls(decl)
        if params:
            for (n, t) in params:
                ps.append(ctype.declare(t, n if names else ''))
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
        return '%scpc_continuation *%s__cps(%s)' % (
            st, decl.spelling, ', '.join(['cpc_continuation *cpc_k'] + ps))

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
            self.edits.append((i + 1, k, 'cpc_continuation *cpc_k'))
        else:
            self.edits.append((i + 1, i + 1, 'cpc_continuation *cpc_k, '))

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
                text = ctype.as_value(d.type, d.spelling + '__cps')
            except ctype.Unnameable as e:
                raise fe.Diags([self.diag(n, 'the type of `%s` cannot be named: %s' % (
                    d.spelling, e))])
            out.append((whole.extent.start.offset, whole.extent.end.offset, text))
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
        for c in u.tu.cursor.get_children():
            if c.kind == K.FUNCTION_DECL and u.in_main_file(c):
                self.first_decl.setdefault(c.spelling, c.extent.start.offset)
        for c in u.tu.cursor.get_children():
            if c.kind != K.FUNCTION_DECL or not u.in_main_file(c):
                continue
            if an.has_annotation(c, 'cpc_need_cont') and not fe.is_cps_function_type(c.type):
                self.need_cont_param(c)
            if c.is_definition():
                continue
            if fe.is_cps_function_type(c.type):
                self.edits.append((c.extent.start.offset, c.extent.end.offset,
                                   self.cps_proto(c)))
        for c in u.tu.cursor.get_children():
            if c.kind == K.VAR_DECL and u.in_main_file(c):
                pre = []
                small = self.value_edits(c, pre)
                if small:
                    self.edits.extend(self.only_outer(small))
                    if pre:
                        a = c.extent.start.offset
                        self.edits.append((a, a, '\n'.join(pre) + '\n' +
                                           rw.line_directive(u, a) + '\n' +
                                           ' ' * rw.col_of(u, a)))
        for c in function_defs(u):
            f = an.Func(u, c)
            if f.is_cps:
                self.cps_function(f)
            else:
                self.native_function(f)
        # the pragma has done its work (boxing); gcc -Wall would warn about it
        from .boxing import PRAGMA_RE
        for m in PRAGMA_RE.finditer(u.text):
            a, b = m.start(), m.end()
            if not any(e[0] <= a < e[1] for e in self.edits):
                self.edits.append((a, b, '/* %s */' % u.text[a:b].decode(
                    'utf-8', 'surrogateescape').replace('*/', '* /')))
        body = rw.apply(u.text, self.edits).decode('utf-8', 'surrogateescape')
        return '#line 1 "%s"\n' % rw.cstr(self.path) + body

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
        small = self.need_cont_edits(
            f, 'cpc_k' if an.has_annotation(f.c, 'cpc_need_cont') else 'NULL')
        pre = []
        frames = []
        small += self.value_edits(f.body, pre)
        self.spawn_edits(f, small, pre, frames, in_cps=False)
        self.external_protos(f, pre)
        self.edits.extend(self.only_outer(small))
        if pre or frames:
            self.insert_before(f, frames, pre)

    def only_outer(self, subs):
        subs = sorted(subs, key=lambda x: (x[0], -x[1]))
        out = []
        end = -1
        for s in subs:
            if s[0] < end:
                continue
            out.append(s)
            end = max(end, s[1])
        return out

    def insert_before(self, f, frames, pre):
        a = f.c.extent.start.offset
        txt = ''
        if frames:
            txt += 'CPC_FRAMES_BEGIN\n' + '\n'.join(frames) + '\nCPC_FRAMES_END\n'
        txt += '\n'.join(pre) + '\n'
        txt += rw.line_directive(self.u, a) + '\n' + ' ' * rw.col_of(self.u, a)
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
            ptypes = list(ft.argument_types()) if fe.tkind(ft) == fe.TK_FUNCTIONPROTO else []
            cargs = []
            if d is None:
                fields.append(ctype.declare_rvalue(callee.type, 'cpc_callee') + ';')
                assigns.append('cpc_a->cpc_callee = %s;' % self.ctext(callee, small))
                fn = ctype.as_entry(ft, 'cpc_a->cpc_callee')
            else:
                fn = d.spelling + '__cps'
            prim = PRIMITIVES.get(d.spelling) if d is not None else None
            for j, a in enumerate(args):
                if prim is not None and j < len(prim):
                    decl = '%s a%d' % (prim[j][0], j)
                elif j < len(ptypes):
                    decl = ctype.declare_rvalue(ptypes[j], 'a%d' % j)
                else:
                    decl = ctype.declare_rvalue(a.type, 'a%d' % j)
                fields.append(decl + ';')
                assigns.append('cpc_a->a%d = %s;' % (j, self.ctext(a, small)))
                cargs.append('cpc_a->a%d' % j)
            if prim is not None:
                for j in range(len(args), len(prim)):
                    cargs.append(prim[j][1])
            fields.append('cpc_function *cpc_fn;')
            frames.append('struct %s { %s };' % (name, ' '.join(fields)))
            pop = ('    struct %s *cpc_a = CPC_POP(cpc_k, struct %s);\n' % (name, name)
                   if cargs and any(x.startswith('cpc_a->') for x in cargs) or d is None
                   else '    (void)CPC_POP(cpc_k, struct %s);\n' % name)
            pre.append('static cpc_continuation *%s__start(cpc_continuation *cpc_k)\n{\n'
                       '%s'
                       '    return %s(%s);\n}' % (name, pop, fn,
                                                  ', '.join(['cpc_k'] + cargs)))
            code = ('{ cpc_continuation *cpc_sk = cpc_continuation_new(sizeof(struct %s)); '
                    'struct %s *cpc_a = CPC_PUSH(cpc_sk, struct %s); %s '
                    'cpc_a->cpc_fn = %s__start; cpc_spawn_continuation(cpc_sk); }') % (
                name, name, name, ' '.join(assigns), name)
            small.append((rw.start(sp), rw.full_end(self.u, sp),
                          rw.fix_lines(self.u, rw.start(sp), rw.full_end(self.u, sp), code)))

    # -- cps functions
    def cps_function(self, f):
        u = self.u
        name = f.name
        cfg = an.Cfg(f)
        self.check_cps_body(f)
        sites = split(f, cfg)
        lift = Lifting(f, cfg)
        small = self.need_cont_edits(f, 'cpc_k')
        pre = []
        frames = []
        small += self.value_edits(f.body, pre)
        self.spawn_edits(f, small, pre, frames, in_cps=True)
        self.external_protos(f, pre)
        params = param_decls(f.c)
        try:
            pdecls = [ctype.declare(t, n) for (n, t) in params]
            pfields = [ctype.declare(t, n, strip_const=True) + ';' for (n, t) in params]
        except ctype.Unnameable as e:
            raise fe.Diags([self.diag(f.c, 'parameter type cannot be named: %s' % e)])
        rt = f.c.type.get_result()
        void = ctype.is_void(rt)
        static = f.c.storage_class == fe.ci.StorageClass.STATIC
        frames.append('struct %s__args { %s };' % (name, ' '.join(pfields + ['cpc_function *cpc_fn;'])))
        has_body = bool(sites)
        target = '%s__body' % name if has_body else '%s__cps' % name
        pnames = [n for (n, t) in params]
        kparams = ', '.join(['cpc_continuation *cpc_k'] + pdecls)
        if has_body:
            body_params = ', '.join(['cpc_continuation *cpc_k', 'int cpc_resume'] + pdecls)
            pre.append('static cpc_continuation *%s__body(%s);' % (name, body_params))
        else:
            pre.append('%scpc_continuation *%s__cps(%s);' % ('static ' if static else '', name, kparams))
        # sites
        for site in cfg.sites:
            if site.tail:
                small.append(self.tail_call(f, site, small))
        for site in sites:
            vs = lift.frame_vars(site)
            fr = '%s__frame_%d' % (name, site.index)
            try:
                fields = [ctype.declare(v.type, v.name, strip_const=True) + ';' for v in vs]
            except ctype.Unnameable as e:
                raise fe.Diags([self.diag(site.call, 'a variable live across this cps call '
                                          'has a type that cannot be named at file scope '
                                          '(%s); declare the type at file scope' % e)])
            frames.append('struct %s { %s };' % (fr, ' '.join(fields + ['cpc_function *cpc_fn;'])))
            zeros = [zero(t) for (n, t) in params]
            pre.append('static cpc_continuation *%s__resume_%d(cpc_continuation *cpc_k)\n{\n'
                       '    return %s__body(%s);\n}' % (name, site.index, name,
                                                       ', '.join(['cpc_k', str(site.index)] + zeros)))
            small.append(self.call_site(f, site, vs, fr, small))
        # returns
        for n, p in an.walk(f.body):
            if n.kind == K.RETURN_STMT:
                if any(s.stmt == n for s in cfg.sites):
                    continue
                ch = an.kids(n)
                if not ch:
                    code = 'return cpc_k;'
                elif void:
                    code = '{ %s; return cpc_k; }' % self.ctext(ch[0], small)
                else:
                    code = '{ %s = %s; return cpc_return(cpc_k, &cpc_ret, sizeof cpc_ret); }' % (
                        ctype.declare_rvalue(rt, 'cpc_ret'), self.ctext(ch[0], small))
                small.append((rw.start(n), rw.full_end(u, n), code))
        # bounce and entry
        pop = ('    struct %s__args *cpc_a = CPC_POP(cpc_k, struct %s__args);\n' % (name, name)
               if pnames else '    (void)CPC_POP(cpc_k, struct %s__args);\n' % name)
        pre.append('static cpc_continuation *%s__bounce(cpc_continuation *cpc_k)\n{\n'
                   '%s'
                   '    return %s(%s);\n}' % (
                       name, pop, target,
                       ', '.join(['cpc_k'] + (['0'] if has_body else []) +
                                 ['cpc_a->' + n for n in pnames])))
        entry_head = '%scpc_continuation *%s__cps(%s)' % ('static ' if static else '', name, kparams)
        budget = ('    if (__builtin_expect(--cpc_budget < 0, 0)) {\n'
                  '        struct %s__args *cpc_a = CPC_PUSH(cpc_k, struct %s__args);\n'
                  '%s'
                  '        cpc_a->cpc_fn = %s__bounce;\n'
                  '        return cpc_k;\n'
                  '    }\n') % (name, name,
                               ''.join('        cpc_a->%s = %s;\n' % (n, n) for n in pnames),
                               name)
        b = f.body
        b0, b1 = b.extent.start.offset, b.extent.end.offset
        bodytext = self.text(b0 + 1, b1 - 1, self.only_outer(small))
        tail = '\n    return cpc_k;\n}'
        if has_body:
            pre.append(entry_head + '\n{\n' + budget +
                       '    return %s__body(%s);\n}' % (name, ', '.join(['cpc_k', '0'] + pnames)))
            dispatch = ' switch (cpc_resume) { %s default: break; }' % ' '.join(
                'case %d: goto %s__resumed_%d;' % (s.index, name, s.index) for s in sites)
            head = 'static cpc_continuation *%s__body(%s)\n' % (name, body_params)
            newbody = head + rw.line_directive(u, b0) + '\n' + ' ' * rw.col_of(u, b0) + \
                '{' + dispatch + bodytext + tail
        else:
            head = entry_head + '\n'
            newbody = head + rw.line_directive(u, b0) + '\n' + ' ' * rw.col_of(u, b0) + \
                '{\n' + budget + rw.line_directive(u, b0 + 1) + '\n' + \
                ' ' * (rw.col_of(u, b0) + 1) + bodytext + tail
        a = f.c.extent.start.offset
        txt = 'CPC_FRAMES_BEGIN\n' + '\n'.join(frames) + '\nCPC_FRAMES_END\n'
        txt += '\n'.join(pre) + '\n'
        txt += rw.line_directive(u, a) + '\n' + ' ' * rw.col_of(u, a)
        self.edits.append((a, f.c.extent.end.offset, txt + newbody + '\n' +
                           rw.line_directive(u, f.c.extent.end.offset) + '\n' +
                           ' ' * rw.col_of(u, f.c.extent.end.offset)))

    def check_cps_body(self, f):
        for n, p in an.walk(f.body):
            if n.kind == K.CALL_EXPR:
                d = an.callee_decl(n)
                if d is None:
                    continue
                s = d.spelling
                if s in ('setjmp', '_setjmp', 'sigsetjmp', '__sigsetjmp', 'longjmp',
                         '_longjmp', 'siglongjmp') and f.cps_calls:
                    raise fe.Diags([self.diag(n, '`%s` in cps function `%s`: setjmp/longjmp '
                                              'cannot cross a cps call' % (s, f.name))])
                if s in ('alloca', '__builtin_alloca') and f.cps_calls:
                    raise fe.Diags([self.diag(n, '`alloca` in cps function `%s`: the memory '
                                              'would not survive a cps call' % f.name)])

    def call_args(self, site, small):
        """(temporary declarations, C argument list after k, callee C name)."""
        call = site.call
        callee = an.callee_of(call)
        d = an.callee_decl(call)
        ft = fe.function_type_of(callee.type)
        ptypes = list(ft.argument_types()) if ft is not None and \
            fe.tkind(ft) == fe.TK_FUNCTIONPROTO else []
        prim = PRIMITIVES.get(d.spelling) if d is not None else None
        decls = []
        names = []
        if d is None:
            decls.append('%s = %s;' % (ctype.declare_rvalue(callee.type, 'cpc_callee'),
                                       self.ctext(callee, small)))
            fn = ctype.as_entry(ft, 'cpc_callee')
        else:
            fn = d.spelling + '__cps'
        args = an.args_of(call)
        for j, a in enumerate(args):
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

    def tail_call(self, f, site, small):
        call = site.call
        callee = an.callee_of(call)
        d = an.callee_decl(call)
        prim = PRIMITIVES.get(d.spelling) if d is not None else None
        args = [self.ctext(a, small) for a in an.args_of(call)]
        if prim is not None:
            for j in range(len(args), len(prim)):
                args.append(prim[j][1])
        fn = d.spelling + '__cps' if d is not None else \
            ctype.as_entry(fe.function_type_of(callee.type), self.ctext(callee, small))
        code = 'return %s(%s);' % (fn, ', '.join(['cpc_k'] + args))
        s = site.stmt
        return (rw.start(s), rw.full_end(self.u, s), code)

    def call_site(self, f, site, vs, fr, small):
        u = self.u
        name = f.name
        decls, names, fn = self.call_args(site, small)
        lines = ['{']
        lines += ['    ' + d for d in decls]
        lines.append('    struct %s *cpc_f = CPC_PUSH(cpc_k, struct %s);' % (fr, fr))
        lines += ['    cpc_f->%s = %s;' % (v.name, v.name) for v in vs]
        lines.append('    cpc_f->cpc_fn = %s__resume_%d;' % (name, site.index))
        lines.append('    return %s(%s);' % (fn, ', '.join(['cpc_k'] + names)))
        lines.append('}')
        after = ['%s__resumed_%d: {' % (name, site.index),
                 '    struct %s *cpc_f = CPC_POP(cpc_k, struct %s);' % (fr, fr)]
        after += ['    %s = cpc_f->%s;' % (v.name, v.name) for v in vs]
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
                after.append('    CPC_RESULT(%s, cpc_f);' % v.spelling)
            else:
                after.append('    %s; CPC_RESULT(cpc_r, cpc_f); %s = cpc_r;' % (
                    ctype.declare_rvalue(rt, 'cpc_r'), v.spelling))
        elif site.form == 'assign':
            after.append('    %s; CPC_RESULT(cpc_r, cpc_f); %s = cpc_r;' % (
                ctype.declare_rvalue(rt, 'cpc_r'), self.ctext(site.dest, small)))
        elif site.form == 'return':
            if not ctype.is_void(f.c.type.get_result()):
                after.append('    %s; CPC_RESULT(cpc_r, cpc_f);' % ctype.declare_rvalue(rt, 'cpc_r'))
                after.append('    { %s = cpc_r; return cpc_return(cpc_k, &cpc_ret, sizeof cpc_ret); }'
                             % ctype.declare_rvalue(f.c.type.get_result(), 'cpc_ret'))
            else:
                after.append('    return cpc_k;')
        if not vs and len(after) == 2 and site.form == 'expr':
            after[1] = '    CPC_POP(cpc_k, struct %s);' % fr
            after[1] = '    (void)CPC_POP(cpc_k, struct %s);' % fr
        after.append('}')
        s = site.stmt
        ind = ' ' * rw.col_of(u, rw.start(s))
        code = (prefix + ('\n' + ind if prefix else '') +
                ('\n' + ind).join(lines) + '\n' + ind + ('\n' + ind).join(after))
        a, b = rw.start(s), rw.full_end(u, s)
        if site.form in ('expr', 'assign', 'return'):
            code = '{ ' + code + ' }' if False else code
        return (a, b, rw.fix_lines(u, a, b, '{ ' + code + ' }' if site.form != 'decl' else code))


def emit(u):
    return Emitter(u).run()
