"""`__attribute__((cleanup(fn)))` on a local of a cps function (after
renaming, so every local has a distinct name; before normalisation).

The generated body returns to the scheduler at each suspension, which would
leave the variable's scope in C and run `fn` every time.  So a cleanup
variable in scope at a cps call loses its attribute (it becomes `unused`,
which only silences a warning), and its cleanup becomes explicit calls
`fn(&x);` wherever C leaves its scope: at the end of its block, before each
`return` (after evaluating the returned value), and before each `break`,
`continue` or `goto` that leaves the block, innermost variable first.

Invariant of the output: no local of a cps function with a cleanup attribute
is in scope at a cps call, or has one in its initialiser.
"""
import bisect

from . import frontend as fe
from .analysis.gnu_attributes import cleanup_function
from .analysis.func import cps_bodies
from .analysis.syntax import ancestors, parents_of, walk
from .cursors import kids
from . import ctype
from . import rewrite as rw

K = fe.K

LOOPS = (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT)


class CleanupVar:
    def __init__(self, var, attr, fn, block):
        self.var = var
        self.attr = attr
        self.fn = fn
        self.block = block
        self.offset = var.extent.start.offset

    def call(self):
        return '%s(&%s);' % (self.fn, self.var.spelling)


def cleanup_vars(u, f, parents):
    """The cleanup variables of cps function f (one of cps_bodies(u,
    with_calls=True)) in scope at one of its cps calls (the others keep
    their attribute: no suspension happens in their scope), with the
    function named by the attribute."""
    calls = None        # the cps calls' offsets, when a cleanup attribute is met
    out = []
    for n, p in walk(f.body, skip_spawn=False):
        if n.kind != K.VAR_DECL:
            continue
        for a in kids(n):
            fn = cleanup_function(u, a)
            if fn is None:
                continue
            stmt = parents.get(id(n))
            block = parents.get(id(stmt)) if stmt is not None else None
            # its scope ends with its block, or with the `for` statement
            # whose header declares it; (a cps call in its own initialiser
            # counts: normalisation makes it a call after the declaration)
            e = block.extent.end.offset if block is not None else f.body.extent.end.offset
            if calls is None:
                calls = sorted(c.extent.start.offset for c in f.cps_calls)
            i = bisect.bisect_left(calls, n.extent.start.offset)
            if i == len(calls) or calls[i] >= e:
                continue
            if block is None or block.kind != K.COMPOUND_STMT:
                raise fe.Diags([u.diag(n, 'a variable with a cleanup attribute in scope at a '
                                       'cps call must be declared in a block (not in a `for` '
                                       'header)')])
            if u.written(a) is None:
                raise fe.Diags([u.diag(n, 'the cleanup attribute of `%s`, in scope at a cps '
                                       'call, comes out of a macro; write it in the function '
                                       'itself' % n.spelling)])
            gp = parents.get(id(block))
            if gp is not None and gp.kind == K.StmtExpr:
                raise fe.Diags([u.diag(n, 'a variable with a cleanup attribute in scope at a '
                                       'cps call cannot be declared in a statement '
                                       'expression')])
            out.append(CleanupVar(n, a, fn, block))
    return out


def _exited(n, target, vs, parents, label_at=None):
    """The variables of vs whose scope a jump from n to outside `target`'s
    subtree (None: the function) leaves: declared before n in a block
    between n and target; and for a goto to a label in the same block as a
    variable but before its declaration, that variable too."""
    blocks = set()
    for a in ancestors(n, parents):
        if a is target:
            break
        blocks.add(id(a))
    o = n.extent.start.offset
    out = []
    for v in vs:
        if v.offset >= o:
            continue
        if id(v.block) in blocks:
            if label_at is None:
                out.append(v)
            else:
                b0, b1 = v.block.extent.start.offset, v.block.extent.end.offset
                if not (b0 <= label_at < b1) or label_at < v.offset:
                    out.append(v)
    return sorted(out, key=lambda v: -v.offset)


def lower(u):
    edits = []
    errors = fe.Collected()          # (every function's, not the first one's)
    for f in cps_bodies(u, with_calls=True):
        with errors.part():
            parents = parents_of(f.body)
            vs = cleanup_vars(u, f, parents)
            if vs:
                edits.extend(lower_function(u, f, vs, parents))
    errors.raise_any()
    return edits


def lower_function(u, f, vs, parents):
    edits = []
    # (declarators that share their specifiers share the attribute:
    # `__attribute__((cleanup(f))) int a = 1, b = 2;`)
    for r in sorted(set(u.written(v.attr) for v in vs)):
        edits.append((r[0], r[1], 'unused'))
    # the end of each block: its variables, last declared first
    ends = {}
    for v in vs:
        ends.setdefault(id(v.block), (v.block, []))[1].append(v)
    for block, bvs in ends.values():
        e = block.extent.end.offset - 1
        calls = ' '.join(x.call() for x in sorted(bvs, key=lambda x: -x.offset))
        edits.append((e, e, ' ' + calls + ' '))
    labels = {}
    for n, p in walk(f.body, skip_spawn=False):
        if n.kind == K.LABEL_STMT:
            labels[n.spelling] = n.extent.start.offset
    rettype = f.c.type.get_result()
    for n, p in walk(f.body, skip_spawn=False):
        k = n.kind
        if k == K.RETURN_STMT:
            out = _exited(n, None, vs, parents)
            if not out:
                continue
            calls = ' '.join(x.call() for x in out)
            ch = kids(n)
            if not ch:
                code = '{ %s return; }' % calls
            elif ctype.is_void(rettype):
                code = '{ %s; %s return; }' % (u.src(ch[0]), calls)
            else:
                try:
                    d = ctype.declare_rvalue(rettype, 'cpc_cleanup_ret', keep_cps=True)
                except ctype.Unnameable:
                    raise fe.Diags([u.diag(n, 'the result type of `%s` cannot be named, but '
                                           'the cleanups must run after the returned value '
                                           'is computed' % f.name)])
                code = '{ %s = %s; %s return cpc_cleanup_ret; }' % (d, u.src(ch[0]), calls)
        elif k in (K.BREAK_STMT, K.CONTINUE_STMT):
            want = LOOPS if k == K.CONTINUE_STMT else LOOPS + (K.SWITCH_STMT,)
            target = next((a for a in ancestors(n, parents) if a.kind in want), None)
            out = _exited(n, target, vs, parents)
            if not out:
                continue
            code = '{ %s %s; }' % (' '.join(x.call() for x in out),
                                   'continue' if k == K.CONTINUE_STMT else 'break')
        elif k == K.GOTO_STMT:
            ch = kids(n)
            at = labels.get(ch[0].spelling) if ch else None
            if at is None:
                continue
            out = _exited(n, None, vs, parents, label_at=at)
            if not out:
                continue
            code = '{ %s %s }' % (' '.join(x.call() for x in out), u.src(n).rstrip(';') + ';')
        elif k == K.INDIRECT_GOTO_STMT:
            if _exited(n, None, vs, parents):
                raise fe.Diags([u.diag(n, 'computed `goto` in the scope of a variable with a '
                                       'cleanup attribute that is in scope at a cps call')])
            continue
        else:
            continue
        a, b = rw.start(n), rw.full_end(u, n)
        edits.append((a, b, rw.fix_lines(u, a, b, code)))
    return edits


def check(u):
    """The invariant: no cleanup variable of a cps function is in scope at
    a cps call."""
    out = []
    for f in cps_bodies(u, with_calls=True):
        for v in cleanup_vars(u, f, parents_of(f.body)):
            out.append(u.diag(v.var, 'the cleanup variable `%s` of cps function `%s` is in '
                              'scope at a cps call' % (v.var.spelling, f.name)))
    return out
