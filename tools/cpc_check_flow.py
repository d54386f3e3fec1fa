"""cpc-check: the flow of function pointers (casts, assignments,
initialisers, arguments, returns, `?:`) that adds or loses the cooperation
annotation, and which native slots cooperative functions are stored in.
"""
import re

from cpc_check_graph import Graph
from cpc_check_nodes import DeclPos, Node


class Flow(Graph):
    def init(self, at, t, e, dst, decl=None):
        """Initialiser e of an object of type t (declaration `at`)."""
        K, fe = self.K, self.fe
        if e.kind == K.INIT_LIST_EXPR:
            t0, _ = self.ty.strip_sugar(t)
            tk = self.ty.tkind(t0)
            fields = list(t0.get_fields()) if tk == self.ty.TK_RECORD else []
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
                        tk in (self.ty.TK_CONSTANTARRAY, self.ty.TK_INCOMPLETEARRAY):
                    self.init(x, t0.element_type, ch[-1], dst, decl=decl)
                    idx += 1
                    continue
                if tk in (self.ty.TK_CONSTANTARRAY, self.ty.TK_INCOMPLETEARRAY, self.ty.TK_VARIABLEARRAY):
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
        K = self.K
        for _ in range(32):
            e = self.syn.strip(e)
            k = e.kind
            if k in (K.DECL_REF_EXPR, K.MEMBER_REF_EXPR):
                return e.referenced
            if k == K.UNARY_OPERATOR:
                op = self.cur.unop(e)
                if op in (self.cur.UO['AddrOf'], self.cur.UO['Deref']):
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
        s = self.syn.strip(e)
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
        s = self.syn.strip(src)
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
        t = slot.type
        for _ in range(8):
            k = self.ty.tkind(t)
            if k == self.ty.TK_ELABORATED:
                t = t.get_named_type()
            elif k == self.ty.TK_TYPEDEF:
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

    def slot_node(self, d):
        """The node of function pointer slot d (a declaration of the
        program's own, not annotated), or None."""
        ident = self.slot_ident(d)
        if ident is None:
            return None
        key = 'slot:%s:%d' % ident
        n = self.nodes.get(key)
        if n is None:
            n = Node(key, d.spelling, 'slot')
            n.local = True
            n.slot = ident
            n.slot_at = self.annotated_by(d)
            self.nodes[key] = n
        return n

    def slot_node_at(self, ident):
        return self.nodes.get('slot:%s:%d' % ident)

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
            if not self.decl_has(d, 'coro'):
                self.slot_node(d)
        dst = self.slot_ident(slot)
        if dst is not None:
            self.slot_node(slot)
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
