"""Normalisation (the first half of splitting): hoisting nested cps calls.

Invariant of the output: in every cps function, every cps call is the whole
of one of the statements
    g(args);   (void)g(args);   x = g(args);   T x = g(args);   return g(args);
where neither g, args nor x contain a cps call (x, any lvalue, is evaluated
after the call).  Calls nested in expressions are hoisted into temporaries
`cpc_tN` in C's evaluation order: `&&`, `||`, `?:` become if-statements (so
their short-circuits hold), `,` becomes a sequence, statement expressions are
opened, operands evaluated before a later cps call are saved first when they
have side effects, declarations with several declarators are split, and a
cps call in a loop condition or a `for` increment moves into the body
(`continue` then jumps to a label before the condition).  Statements without
cps calls are kept byte for byte.
"""
import re

from . import frontend as fe
from .clang_types import function_type_of
from .cursors import ASSIGN_OPS, BO, binop, kids
from .libclang import integer_value
from .analysis.cfg import for_parts, function_graph, normal_form
from .analysis.func import cps_bodies, var_init
from .analysis.syntax import (
    LOOP_KINDS, callee_of, has_side_effects, is_choose_expr, is_cps_call, linked_sched,
    node_id, selectable, spawn_body, strip)
from . import ctype
from . import rewrite as rw

K = fe.K

ATOMIC_BUILTIN_RE = re.compile(rb'__(?:c11_)?atomic_\w+\s*\(')
TEMP_RE = re.compile(r'cpc_t\d+')


LOOP_HINT_RE = re.compile(rb'[ \t]*#[ \t]*pragma[ \t]+GCC[ \t]+(?:ivdep|unroll|novector)\b[^\n]*\n')


def loop_hints_before(text, a):
    """Where the `#pragma GCC ivdep/unroll/novector` lines just before
    offset a (a loop) start; a when there are none."""
    line = text.rfind(b'\n', 0, a) + 1
    if text[line:a].strip():
        return a                        # something else before the loop on its line
    start = line
    while start > 0:
        prev = text.rfind(b'\n', 0, start - 1) + 1
        if not LOOP_HINT_RE.fullmatch(text, prev, start):
            break
        start = prev
    return start if start < line else a


def _same(a, b):
    return b is not None and node_id(a) == node_id(b)


def discarded(t):
    """The statements that evaluate `t`, the rest of an expression whose
    value is discarded once its cps calls are hoisted: none when it is a
    bare temporary (the call was the whole of it) or nothing, else the
    expression itself (`cpc_t1->prev = q` of `next(p)->prev = q`)."""
    if t is None or t == '(void)0' or TEMP_RE.fullmatch(t):
        return []
    return ['(void)(%s);' % t]


def binds_continue(c):
    """True if c contains a `continue` binding to an enclosing loop of c."""
    stack = list(kids(c)) if c.kind not in LOOP_KINDS else []
    if c.kind == K.CONTINUE_STMT:
        return True
    while stack:
        n = stack.pop()
        if n.kind == K.CONTINUE_STMT:
            return True
        if n.kind in LOOP_KINDS:
            continue
        if not (n.kind.is_statement() or n.kind == K.COMPOUND_STMT):
            continue
        stack.extend(kids(n))
    return False


def stmt_children(u, c):
    """The sub-statements of statement c."""
    k = c.kind
    ch = kids(c)
    if k == K.COMPOUND_STMT:
        return ch
    if k == K.IF_STMT:
        return ch[1:]
    if k in (K.WHILE_STMT, K.SWITCH_STMT, K.LABEL_STMT, K.CASE_STMT,
             K.DEFAULT_STMT):
        return ch[-1:]
    if k == K.DO_STMT:
        return ch[:1]
    if k == K.FOR_STMT:
        return [for_parts(u, c)[3]]
    return []


class Expressions:
    """Expressions linearised (`lin`): the cps calls they hold evaluated
    first, in order, into temporaries; a statement expression's statements
    go through the statement rewriting of the subclass (`stmt`)."""

    def __init__(self, u, f):
        self.u = u
        self.f = f
        self.n = 0
        self.cont = None
        self.used_labels = set()      # continue labels some goto jumps to

    def tmp(self):
        self.n += 1
        return 'cpc_t%d' % self.n

    def raw(self, c):
        return rw.rebuild(self.u, rw.start(c), rw.full_end(self.u, c), [])

    def src(self, c):
        return self.u.src(c)

    def cps(self, c):
        return self.f.contains_cps(c)

    def needs(self, c):
        if self.cps(c):
            return True
        return self.cont is not None and binds_continue(c)

    def diag(self, c, msg):
        raise fe.Diags([self.u.diag(c, msg)])

    def is_binary_conditional(self, e, ch):
        """e is GNU's `c ?: b`: Clang shows c three times (the common
        expression, then as the condition and the value), then b."""
        if len(ch) != 4 or any(x.extent.start.offset != ch[0].extent.start.offset
                               for x in ch[1:3]):
            return False
        between = self.u.text[ch[0].extent.end.offset:rw.start(ch[3])]
        return re.sub(rb'\s+', b'', between) == b'?:'

    def decl_tmp(self, t, name):
        try:
            return ctype.declare_rvalue(t, name, keep_cps=True)
        except ctype.Unnameable:
            raise ctype.Unnameable(t.spelling)

    def lin(self, e):
        """(statements, text): the statements evaluate e's cps calls in
        order; text (None for void) computes the rest of e."""
        if not self.cps(e):
            return [], self.src(e)
        k = e.kind
        ch = kids(e)
        if k == K.PAREN_EXPR:
            s, t = self.lin(ch[0])
            return s, None if t is None else '(' + t + ')'
        if k == K.UNEXPOSED_EXPR and len(ch) == 1 and \
                ch[0].extent.start.offset == e.extent.start.offset and \
                ch[0].extent.end.offset == e.extent.end.offset:
            return self.lin(ch[0])
        if k == K.CALL_EXPR and is_cps_call(e):
            s, txt = self.lin_children(e)
            ft = function_type_of(ch[0].type)
            rt = ft.get_result() if ft is not None else e.type
            if ctype.is_void(rt):
                s.append(txt + ';')
                return s, None
            t = self.tmp()
            s.append('%s = %s;' % (self.decl_tmp(rt, t), txt))
            return s, t
        if k == K.BINARY_OPERATOR:
            op = binop(e)
            a, b = ch
            if op in (BO['LAnd'], BO['LOr']):
                sa, ta = self.lin(a)
                if not self.cps(b):
                    return sa, rw.rebuild(self.u, rw.start(e), e.extent.end.offset,
                                          [(rw.start(a), a.extent.end.offset, ta)])
                sb, tb = self.lin(b)
                t = self.tmp()
                if op == BO['LAnd']:
                    code = 'int %s; if (%s) { %s %s = !!(%s); } else %s = 0;' % (
                        t, ta, ' '.join(sb), t, tb, t)
                else:
                    code = 'int %s; if (%s) %s = 1; else { %s %s = !!(%s); }' % (
                        t, ta, t, ' '.join(sb), t, tb)
                return sa + [code], t
            if op == BO['Comma']:
                sa, ta = self.lin(a)
                sb, tb = self.lin(b)
                return sa + discarded(ta) + sb, tb
        if k == K.CONDITIONAL_OPERATOR:
            c, a, b = ch
            if not self.cps(a) and not self.cps(b):
                sc, tc = self.lin(c)
                return sc, rw.rebuild(self.u, rw.start(e), e.extent.end.offset,
                                      [(rw.start(c), c.extent.end.offset, tc)])
            sc, tc = self.lin(c)
            sa, ta = self.lin(a)
            sb, tb = self.lin(b)
            if ctype.is_void(e.type):
                def arm(s, t):
                    return ' '.join(s + (['(void)(%s);' % t] if t else []))
                return sc + ['if (%s) { %s } else { %s }' % (tc, arm(sa, ta), arm(sb, tb))], None
            t = self.tmp()
            return sc + ['%s; if (%s) { %s %s = %s; } else { %s %s = %s; }' % (
                self.decl_tmp(e.type, t), tc, ' '.join(sa), t, ta,
                ' '.join(sb), t, tb)], t
        if k == K.StmtExpr:
            comp = ch[0]
            items = kids(comp)
            body = []
            for x in items[:-1]:
                body.append(self.stmt(x) if self.needs(x) else self.raw(x))
            if not items:
                return [], None
            last = items[-1]
            if last.kind.is_expression() and not ctype.is_void(e.type):
                sl, tl = self.lin(last)
                t = self.tmp()
                return ['%s;' % self.decl_tmp(e.type, t),
                        '{ %s %s %s = %s; }' % (' '.join(body), ' '.join(sl), t, tl)], t
            body.append(self.stmt(last) if self.needs(last) else self.raw(last))
            return ['{ %s }' % ' '.join(body)], None
        if k == K.UNEXPOSED_EXPR and is_choose_expr(self.u, e):
            # only the branch chosen is evaluated (unevaluated.py put the
            # other's calls out): it stands for the whole
            value = integer_value(ch[0])
            if value is None:
                self.diag(e, 'cannot evaluate the condition of this __builtin_choose_expr')
            return self.lin(ch[1] if value else ch[2])
        if k == K.GENERIC_SELECTION_EXPR:
            # only the association selected is evaluated; when several have
            # the selection's type (unevaluated.py put the calls of the
            # others out), which one is the C compiler's to say: the
            # selection picks a number, and only that association runs
            chosen = [x for x in ch[1:] if selectable(e, x)]
            if len(chosen) > 1 and any(self.cps(x) for x in chosen):
                return self.lin_generic_selection(e, ch, chosen)
        if k == K.UNEXPOSED_EXPR and self.is_binary_conditional(e, ch):
            # GNU `c ?: b`: c once, b only when c is zero
            sc, tc = self.lin(ch[0])
            sb, tb = self.lin(ch[-1])
            t = self.tmp()
            return sc + ['%s = %s; if (!%s) { %s %s = %s; }' % (
                self.decl_tmp(e.type, t), tc, t, ' '.join(sb), t, tb)], t
        if k == K.UNEXPOSED_EXPR and ATOMIC_BUILTIN_RE.match(self.u.text, rw.start(e)):
            # __c11_atomic_* / __atomic_* (<stdatomic.h>): every operand is
            # evaluated, in an unspecified order
            return self.lin_children(e)
        if k in (K.UNEXPOSED_EXPR,) and len(ch) != 1 and not (
                ch and all(not self.cps(x) for x in ch[:-1]) and
                self.u.text[rw.start(e):rw.start(e) + 1] in (b'.', b'[')):
            # (a designated initialiser `.m = v` or `[i] = v` hoists its value)
            self.diag(e, 'cps call in an unsupported expression; '
                      'assign its result to a variable first')
        s, t = self.lin_children(e)
        return s, t

    def lin_generic_selection(self, e, ch, chosen):
        number = {node_id(x): i for i, x in enumerate(chosen, 1)}
        sel = rw.rebuild(self.u, rw.start(e), e.extent.end.offset, [
            (rw.start(x), x.extent.end.offset, str(number.get(node_id(x), 0)))
            for x in ch[1:]])
        n = self.tmp()
        arms = []
        t = None if ctype.is_void(e.type) else self.tmp()
        for i, x in enumerate(chosen, 1):
            sx, tx = self.lin(x)
            last = [] if tx is None else \
                ['(void)(%s);' % tx] if t is None else ['%s = %s;' % (t, tx)]
            arms.append('if (%s == %d) { %s }' % (n, i, ' '.join(sx + last)))
        out = ['int %s = %s;' % (n, sel)]
        if t is not None:
            out.append('%s;' % self.decl_tmp(e.type, t))
        return out + [' else '.join(arms)], t

    def lin_children(self, e):
        """Hoist the cps calls of e's operands; keep e itself."""
        ch = kids(e)
        idx = [i for i, x in enumerate(ch) if x.kind.is_expression() and self.cps(x)]
        if not idx:
            return [], self.src(e)
        last = idx[-1]
        strict = e.kind == K.CALL_EXPR or (
            e.kind == K.BINARY_OPERATOR and binop(e) not in ASSIGN_OPS
            and binop(e) not in (BO['LAnd'], BO['LOr'], BO['Comma']))
        stmts = []
        subs = []
        for i, x in enumerate(ch):
            if not x.kind.is_expression():
                continue
            if self.cps(x):
                s, t = self.lin(x)
                stmts.extend(s)
                subs.append((rw.start(x), x.extent.end.offset, t if t is not None else '(void)0'))
            elif strict and i < last and i > 0 or (strict and i < last and e.kind != K.CALL_EXPR):
                if has_side_effects(x):
                    t = self.tmp()
                    stmts.append('%s = %s;' % (self.decl_tmp(x.type, t), self.src(x)))
                    subs.append((rw.start(x), x.extent.end.offset, t))
        return stmts, rw.rebuild(self.u, rw.start(e), e.extent.end.offset, subs)


class Normalizer(Expressions):
    """Statements rewritten so that each cps call is one in normal form."""

    # -- statements
    def sub(self, c):
        a = rw.start(c)
        if c.kind in LOOP_KINDS:
            # a loop hint before a loop whose cps calls split it (gcc's
            # `#pragma GCC ivdep`, which Clang does not see) goes, its line
            # kept: the C compiler would find no loop condition to apply it to
            h = loop_hints_before(self.u.text, a)
            if h < a:
                return (h, rw.full_end(self.u, c),
                        '\n' * self.u.text.count(b'\n', h, a) + self.stmt(c))
        return (a, rw.full_end(self.u, c), self.stmt(c))

    def rebuild_stmt(self, c, extra=()):
        subs = list(extra)
        for x in stmt_children(self.u, c):
            if self.needs(x):
                subs.append(self.sub(x))
        return rw.rebuild(self.u, rw.start(c), rw.full_end(self.u, c), subs)

    def fixed(self, c, text):
        return rw.fix_lines(self.u, rw.start(c), rw.full_end(self.u, c), text)

    def in_loop(self, fn, label=None):
        saved = self.cont
        self.cont = label
        try:
            return fn()
        finally:
            self.cont = saved

    def stmt(self, c):
        if not self.needs(c):
            return self.raw(c)
        k = c.kind
        if k == K.CONTINUE_STMT:
            self.used_labels.add(self.cont)
            return 'goto %s;' % self.cont
        if k == K.COMPOUND_STMT or k in (K.LABEL_STMT, K.CASE_STMT, K.DEFAULT_STMT):
            return self.rebuild_stmt(c)
        if spawn_body(c) is not None or linked_sched(c) is not None:
            return self.raw(c)
        site = normal_form(self.f, c)
        if site is not None:
            return self.fixed(c, self.site(c, site))
        if k == K.DECL_STMT:
            return self.fixed(c, self.decl(c))
        if k == K.RETURN_STMT:
            ch = kids(c)
            s, t = self.lin(ch[0])
            if t is None:
                return self.fixed(c, '{ %s return; }' % ' '.join(s))
            return self.fixed(c, '{ %s return %s; }' % (' '.join(s), t))
        if k in (K.IF_STMT, K.SWITCH_STMT):
            ch = kids(c)
            if self.cps(ch[0]):
                s, t = self.lin(ch[0])
                inner = self.rebuild_stmt(c, [(rw.start(ch[0]), ch[0].extent.end.offset, t)])
                return self.fixed(c, '{ %s %s }' % (' '.join(s), inner))
            return self.rebuild_stmt(c)
        if k == K.WHILE_STMT:
            cond, body = kids(c)
            if self.cps(cond):
                s, t = self.lin(cond)
                b = self.in_loop(lambda: self.stmt(body))
                return self.fixed(c, 'while (1) { %s if (!(%s)) break; %s }' % (
                    ' '.join(s), t, self.on_its_line(c, body, b)))
            return self.in_loop(lambda: self.rebuild_stmt(c))
        if k == K.DO_STMT:
            body, cond = kids(c)
            if self.cps(cond):
                lab = self.label()
                s, t = self.lin(cond)
                b = self.in_loop(lambda: self.stmt(body), lab)
                # (the condition on its own line, not the body's last one)
                # (the loop's jump back on the condition's line, as gcc puts
                # a do-while's)
                here = rw.line_directive(self.u, rw.start(cond))
                return self.fixed(c, '\n%s\nfor (;;) {\n%s\n%s\n%s\n%s %s if (!(%s)) break; }' % (
                    here, rw.line_directive(self.u, rw.start(body)), b, here,
                    self.placed(lab), ' '.join(s), t))
            return self.in_loop(lambda: self.rebuild_stmt(c))
        if k == K.FOR_STMT:
            return self.for_stmt(c)
        if k.is_expression():
            s, t = self.lin(c)
            return self.fixed(c, '{ %s }' % ' '.join(s + discarded(t)))
        if k == K.UNEXPOSED_STMT and len(kids(c)) == 1 and \
                not kids(c)[0].kind.is_expression():
            # a statement with attributes (Clang's AttributedStmt): a loop
            # after `#pragma GCC unroll` or `ivdep`, `__attribute__((musttail))
            # return ...`.  They are hints for the C compiler, which a
            # statement whose cps calls split it into resume points cannot
            # take (the loop is no longer one): they go, their lines kept
            inner = kids(c)[0]
            a, b = rw.start(c), rw.start(inner)
            return self.fixed(c, '\n' * self.u.text.count(b'\n', a, b) + self.stmt(inner))
        if k == K.ASM_STMT:
            # the operands' calls first, in order, then the asm statement
            stmts, subs = [], []
            for x in kids(c):
                if x.kind.is_expression() and self.cps(x):
                    s, t = self.lin(x)
                    stmts += s
                    subs.append((rw.start(x), x.extent.end.offset, t))
            return self.fixed(c, '{ %s %s }' % (' '.join(stmts), rw.rebuild(
                self.u, rw.start(c), rw.full_end(self.u, c), subs)))
        if k == K.INDIRECT_GOTO_STMT:
            # `goto *e;`: e's calls first, then the jump
            s, t = self.lin(kids(c)[0])
            return self.fixed(c, '{ %s goto *(%s); }' % (' '.join(s), t))
        self.diag(c, 'cps call in an unsupported statement (%s)' % k.name.lower())

    def on_its_line(self, loop, body, text):
        """The text of a loop's body moved after the hoisted condition: on
        the body's own line when it is not the loop's (a `#line` before it),
        so that the body's code is not attributed to the head."""
        if rw.presumed_line(self.u, rw.start(body)) == rw.presumed_line(self.u, rw.start(loop)):
            return text
        return '\n%s\n%s%s' % (rw.line_directive(self.u, rw.start(body)),
                               ' ' * rw.col_of(self.u, rw.start(body)), text)

    def label(self):
        self.n += 1
        return 'cpc_continue_%d' % self.n

    def placed(self, lab):
        """The continue label where it goes, when some continue was
        rewritten to jump to it (an unused label is a -Wall warning)."""
        return '%s: ;' % lab if lab in self.used_labels else ''

    def for_stmt(self, c):
        init, cond, inc, body = for_parts(self.u, c)
        if not any(x is not None and self.cps(x) for x in (init, cond, inc)):
            return self.in_loop(lambda: self.rebuild_stmt(c))
        parts = []
        if init is not None:
            if init.kind == K.DECL_STMT:
                parts.append(self.stmt(init) if self.cps(init) else self.raw(init))
            else:
                s, t = self.lin(init)
                parts.extend(s + discarded(t))
        condpart, head = '', ';;'
        if cond is not None and not self.cps(cond):
            # in the head: gcc lays the loop out, and its lines, as the source's
            head = '; %s;' % self.src(cond)
        elif cond is not None:
            s, t = self.lin(cond)
            condpart = '%s if (!(%s)) break;' % (' '.join(s), t)
        if inc is not None and self.cps(inc):
            lab = self.label()
            b = self.in_loop(lambda: self.stmt(body), lab)
            s, t = self.lin(inc)
            s += discarded(t)
            # (the increment on the line of the `for`, not the body's last one)
            loop = 'for (%s) { %s\n%s\n%s\n%s\n%s %s }' % (
                head, condpart, rw.line_directive(self.u, rw.start(body)), b,
                rw.line_directive(self.u, rw.start(inc)), self.placed(lab), ' '.join(s))
        else:
            b = self.in_loop(lambda: self.stmt(body))
            inctext = self.src(inc) if inc is not None else ''
            loop = 'for (%s %s) { %s %s }' % (head, inctext, condpart,
                                              self.on_its_line(c, body, b) if condpart else b)
        return self.fixed(c, '{ %s %s }' % (' '.join(parts), loop))

    def site(self, c, site):
        """A statement that is a cps call in normal form once its parts are
        hoisted."""
        call = site.call
        s, calltext = self.lin_children(call)
        if site.form == 'expr':
            if not s:
                return self.raw(c)
            return '{ %s %s; }' % (' '.join(s), calltext)
        if site.form == 'return':
            return '{ %s return %s; }' % (' '.join(s), calltext)
        if site.form == 'assign':
            s2, dest = self.lin(site.dest)
            if not s and not s2:
                return self.raw(c)
            return '{ %s %s %s = %s; }' % (' '.join(s), ' '.join(s2), dest, calltext)
        if site.form == 'decl':
            v = kids(c)[0]
            if not s:
                return self.raw(c)
            prefix = rw.rebuild(self.u, rw.start(c), rw.start(call), [])
            return '%s %s%s;' % (' '.join(s), prefix, calltext)
        raise AssertionError(site.form)

    def decl(self, c):
        vs = kids(c)
        for v in vs:
            if v.kind not in (K.VAR_DECL, K.FUNCTION_DECL):
                self.diag(c, 'cps call in a declaration that also declares a type; '
                          'declare the type separately')
        bounds = [(v, x) for v in vs if v.kind == K.VAR_DECL for x in kids(v)
                  if x.kind.is_expression() and not _same(x, var_init(self.u, v)) and
                  self.cps(x)]
        if bounds:
            return self.decl_with_bounds(c, vs, bounds)
        out = []
        single = len(vs) == 1
        for v in vs:
            if v.kind == K.FUNCTION_DECL:
                # `double a = f(), g();`: its extent starts where the declaration does
                out.append(ctype.declare(v.type, v.spelling, keep_cps=True) + ';')
                continue
            init = var_init(self.u, v)
            if single:
                prefix = rw.rebuild(self.u, rw.start(c), rw.start(init), [])
            else:
                try:
                    d = ctype.declare(v.type, v.spelling, keep_cps=True)
                except ctype.Unnameable:
                    self.diag(v, 'cannot split this declaration of `%s`; '
                              'declare it separately' % v.spelling)
                sc = v.storage_class
                if sc == fe.ci.StorageClass.REGISTER:
                    d = 'register ' + d
                prefix = d + (' = ' if init is not None else '')
            if init is None:
                out.append(prefix + ';')
                continue
            if not self.cps(init):
                out.append(prefix + self.src(init) + ';')
                continue
            e = strip(init)
            if e.kind == K.CALL_EXPR and is_cps_call(e):
                s, t = self.lin_children(e)
            else:
                s, t = self.lin(init)
            out.append(' '.join(s) + ' ' + prefix + t + ';')
        return ' '.join(out)

    def decl_with_bounds(self, c, vs, bounds):
        """A declaration whose variably modified type has cps calls in its
        bounds (`int q[f(n)] = ...;`): the bounds are evaluated first (when
        the declaration is reached), then the initialiser."""
        if len(vs) != 1:
            self.diag(bounds[0][1], 'cps call in an array bound of a declaration with several '
                      'declarators; declare the variable separately')
        v = vs[0]
        stmts, subs = [], []
        for _, x in bounds:
            s, t = self.lin(x)
            stmts += s
            subs.append((rw.start(x), x.extent.end.offset, t))
        init = var_init(self.u, v)
        if init is not None and self.cps(init):
            s, t = self.lin(init)
            stmts += s
            subs.append((rw.start(init), init.extent.end.offset, t))
        return ' '.join(stmts) + ' ' + rw.rebuild(self.u, rw.start(c), rw.full_end(self.u, c), subs)


def normalize(u):
    """Edits normalising every cps function of unit u."""
    edits = []
    errors = fe.Collected()          # (every function's, not the first one's)
    for f in cps_bodies(u, with_calls=True):
        with errors.part():
            nz = Normalizer(u, f)
            body = f.body
            if nz.needs(body):
                text = nz.stmt(body)
                if text != nz.raw(body):
                    edits.append((rw.start(body), rw.full_end(u, body), text))
    errors.raise_any()
    return edits


def check(u):
    """The invariant of normalize on its output: every cps call of a cps
    function is the call of a statement in normal form (`g(a);`,
    `x = g(a);`, `T x = g(a);`, `return g(a);`) that the control flow graph
    reaches as a call site."""
    out = []
    for f in cps_bodies(u, with_calls=True):
        sites = {(s.call.extent.start.offset, s.call.extent.end.offset)
                 for s in function_graph(f).sites}
        for call in f.cps_calls:
            if (call.extent.start.offset, call.extent.end.offset) not in sites:
                out.append(u.diag(call, 'cps call to `%s` is not in normal form'
                                  % (callee_of(call).spelling or '?')))
    return out
