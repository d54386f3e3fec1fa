"""`cpc_linked(s) S`, `cpc_detached S`, `cpc_attached S` (after spawn
outlining, before normalisation).

Invariant of the output: no linked statement remains.  In a cps function,
the N-th linked statement becomes

    { cpc_sched *cpc_prev_N = cpc_link(s); S' cpc_link(cpc_prev_N); }

where S' is S with each `return e;` (not inside a nested linked statement,
which does the same with its own chain) rewritten to evaluate e in the
linked scheduler, link back through every enclosing linked statement,
innermost first, and return the saved value:

    { T cpc_lret_M = e; cpc_link(cpc_prev_N); ...; return cpc_lret_M; }

`goto`, `break`, `continue` or a `case` label leaving S, and a `goto` into
S, are errors; a linked statement in native context is an error (spawned
statements are cps context: they were outlined before this pass).  Lines of
the source are kept (the added code sits on the lines of `cpc_linked` and of
the end of S).
"""
import re

from . import cps_free
from . import frontend as fe
from .analysis.func import func
from .analysis.syntax import args_of, linked_sched, strip, walk
from .cursors import kids
from . import ctype
from . import rewrite as rw
from .analysis import jumps

K = fe.K

KEYWORD = 'cpc_linked'


def linked_stmts(root):
    """Linked statements of root, outermost first, each with its body."""
    out = []
    for n, p in walk(root):
        ch = linked_sched(n)
        if ch is not None:
            out.append(n)
    return out


def sched_expr(u, stmt):
    """The scheduler expression of a linked statement, as written: the
    keyword at the statement's start is cpc_detached, cpc_attached, or
    cpc_linked followed by its parenthesised argument."""
    a = rw.start(stmt)
    t = u.text
    m = re.match(rb'(cpc_detached|cpc_attached|cpc_linked)\b', t[a:a + 16])
    if m is None and t[a:a + 2] == b'if':
        # a function rendered macro-expanded by macros.expand_macros
        args = args_of(strip(kids(stmt)[0]))
        if args:
            return '(' + u.src(args[0]) + ')'
    if m is None:
        raise fe.Diags([u.diag(stmt, 'cannot find the scheduler of this linked statement '
                               '(written through a macro?); write `cpc_linked(s)`, '
                               '`cpc_detached` or `cpc_attached` directly')])
    kw = m.group(1).decode()
    if kw == 'cpc_detached':
        return 'cpc_default_threadpool'
    if kw == 'cpc_attached':
        return 'cpc_default_sched'
    i = rw.skip_space(t, a + len('cpc_linked'))
    end = rw.group_end(t, i) if t[i:i + 1] == b'(' else None
    if end is not None:
        return '(' + t[i + 1:end - 1].decode('utf-8', 'surrogateescape') + ')'
    raise fe.Diags([u.diag(stmt, 'malformed `cpc_linked`')])


class Linker:
    def __init__(self, u, f):
        self.u = u
        self.f = f
        self.n = 0
        self.nret = 0
        self.errs = []
        rt = f.c.type.get_result()
        self.void = ctype.is_void(rt)
        self.rt = rt

    def stmt(self, L, chain):
        """Replacement text for linked statement L inside `chain` (the
        numbers of the enclosing linked statements, innermost first)."""
        u = self.u
        self.n += 1
        me = self.n
        chain = [me] + chain
        body = kids(L)[2]
        what = 'a `cpc_linked` statement (in `%s`)' % self.f.name
        errs, labels = jumps.escapes(u, body, what)
        errs += jumps.gotos_into(u, self.f.body, body, labels, what)
        self.errs.extend(errs)
        subs = []
        nested = set()
        for n, p in walk(body):
            if n is body:
                continue
            if linked_sched(n) is not None and not any(
                    s <= rw.start(n) < e for (s, e) in nested):
                nested.add((rw.start(n), rw.full_end(u, n)))
                subs.append((rw.start(n), rw.full_end(u, n), self.stmt(n, chain)))
        for n, p in walk(body):
            if n.kind == K.RETURN_STMT and not any(s <= rw.start(n) < e for (s, e) in nested):
                subs.append((rw.start(n), rw.full_end(u, n), self.ret(n, chain)))
        a, b = rw.start(body), rw.full_end(u, body)
        text = rw.rebuild(u, a, b, subs)
        return '{ cpc_sched *cpc_prev_%d = cpc_link(%s); %s cpc_link(cpc_prev_%d); }' % (
            me, sched_expr(u, L), text, me)

    def ret(self, n, chain):
        back = ' '.join('cpc_link(cpc_prev_%d);' % i for i in chain)
        ch = kids(n)
        if not ch:
            return '{ %s return; }' % back
        e = self.u.src(ch[0])
        if self.void:
            return '{ %s; %s return; }' % (e, back)
        self.nret += 1
        try:
            d = ctype.declare(self.rt, 'cpc_lret_%d' % self.nret, strip_const=True, keep_cps=True)
        except ctype.Unnameable:
            d = '__typeof__(%s) cpc_lret_%d' % (e, self.nret)
        return '{ %s = %s; %s return cpc_lret_%d; }' % (d, e, back, self.nret)


def link(u):
    edits = []
    errs = []
    for c in cps_free.code_defs(u):
        f = func(u, c)
        if f.body is None:
            continue
        ls = linked_stmts(f.body)
        if not ls:
            continue
        if not f.is_cps:
            for L in ls:
                errs.append(u.diag(L, '`cpc_linked`, `cpc_detached` and `cpc_attached` are only '
                                   'allowed in cps context, not in native function `%s`; '
                                   'make `%s` cps or spawn the statement' % (f.name, f.name)))
            continue
        lk = Linker(u, f)
        done = []
        for L in ls:
            s, e = rw.start(L), rw.full_end(u, L)
            if any(a <= s < b for (a, b) in done):
                continue
            done.append((s, e))
            edits.append((s, e, lk.stmt(L, [])))
        errs.extend(lk.errs)
    if errs:
        raise fe.Diags(errs)
    return edits


def check(u):
    """The invariant of link on its output: no linked statement remains."""
    out = []
    for c in u.function_defs():
        f = func(u, c)
        if f.body is not None:
            out += [u.diag(L, 'a linked statement remains in `%s`' % f.name)
                    for L in linked_stmts(f.body)]
    return out
