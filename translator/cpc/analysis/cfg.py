"""The control flow graph of a function (or of one statement of it) at the
granularity of expressions: if/loops/switch with fall-through and nested
cases, goto/labels, break/continue/return; a cps call statement in normal
form (`CallSite`) is two nodes, the call and the resume point.  Each node
carries the variables it reads and writes, for the data flow over it
(dataflow.py).

Invariant: nothing here changes the program.
"""
from itertools import accumulate, compress

from ..cursors import BO, binop, kids
from .func import always_assigned, expr_refs, is_local_var, lvalue_base, var_init, vkey
from .syntax import K, is_cps_call, spawn_body, strip, strip_casts, walk


class Bits:
    """Sets of variable keys as Python ints: bit i is the i-th key met.
    The data flow over a whole function then costs a few machine words per
    node and step instead of a copy of a set.  Given `keys`, the numbering
    is closed: those keys only, in that order; mask() leaves out the others.

    Converting between keys and masks costs the length of the mask, not
    that times the number of keys: an operation on a Python int allocates
    a new one of its size, so setting or clearing bits one at a time in a
    mask of n bits costs n words per bit (a function with thousands of
    variables in scope at thousands of calls made that cubic).  Large masks
    are built in a bytearray and read through their binary digits."""

    def __init__(self, keys=None):
        self.closed = keys is not None
        self.keys = list(keys or ())
        self.index = {k: i for i, k in enumerate(self.keys)}

    def mask(self, keys):
        index = self.index
        bits = []
        for k in keys:
            i = index.get(k)
            if i is None:
                if self.closed:
                    continue
                i = index[k] = len(self.keys)
                self.keys.append(k)
            bits.append(i)
        if len(bits) < _FEW:
            m = 0
            for i in bits:
                m |= 1 << i
            return m
        return from_bit_numbers(bits)

    def ordered(self, m):
        """The keys of m, by bit number."""
        if m.bit_count() * _SPARSE < m.bit_length():
            # a few bits of a long mask: one step per bit
            out = []
            keys = self.keys
            while m:
                low = m & -m
                out.append(keys[low.bit_length() - 1])
                m ^= low
            return out
        return list(compress(self.keys, bin(m)[:1:-1].encode('ascii').translate(_DIGITS)))

    def flags(self, m):
        """A byte per key, by bit number: 1 when the key is in m, else 0."""
        return _flags(m, len(self.keys))

    def keys_of(self, m):
        return set(self.ordered(m))


_DIGITS = bytes.maketrans(b'01', b'\x00\x01')    # binary digits as flags for compress()
_TO_DIGITS = bytes.maketrans(b'\x00\x01', b'01')
_SPARSE = 32       # a mask with fewer set bits than 1 in this many is read bit by bit
_FEW = 32           # below this many bits, shifts are as cheap as a bytearray


def _flags(m, width):
    return bin(m)[:1:-1].ljust(width, '0').encode('ascii').translate(_DIGITS)


def renumbering(kept):
    """For each bit number of `kept` (Bits.flags), its number among the kept
    bits (for those that are kept)."""
    return [n - 1 for n in accumulate(kept)]


def extract(m, kept, places=None):
    """The bits of m at the positions whose flag in `kept` is 1 (Bits.flags),
    packed from bit 0 up: m in the numbering of the kept keys alone.  With
    `places` (renumbering(kept)), a mask with few bits set is read bit by
    bit (its cost the bits it has, not the positions it spans)."""
    width = m.bit_length()
    if places is not None and m.bit_count() * _SPARSE < width:
        bits = []
        while m:
            low = m & -m
            b = low.bit_length() - 1
            if kept[b]:
                bits.append(places[b])
            m ^= low
        return from_bit_numbers(bits)
    digits = bytes(compress(_flags(m, width), kept[:width]))      # bit 0 first
    return int(digits[::-1].translate(_TO_DIGITS), 2) if digits else 0


def from_bit_numbers(bits):
    """The int whose set bits are `bits` (a list of bit numbers, repeats
    allowed), in time linear in its size."""
    if len(bits) < _FEW:
        m = 0
        for i in bits:
            m |= 1 << i
        return m
    b = bytearray((max(bits) >> 3) + 1)
    for i in bits:
        b[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(b, 'little')


class Node:
    __slots__ = ('id', 'kind', 'cursor', 'uses', 'defs', 'writes', 'succ',
                 'pred', 'scope', 'info')

    def __init__(self, id, kind, cursor=None):
        self.id = id
        self.kind = kind       # 'expr', 'call', 'resume', 'nop', 'entry', 'exit'
        self.cursor = cursor
        self.uses = set()
        self.defs = set()
        self.writes = set()
        self.succ = []
        self.pred = []
        self.scope = None
        self.info = None

    def __repr__(self):
        return 'Node(%d,%s)' % (self.id, self.kind)


class CallSite:
    """A cps call statement in normal form."""

    def __init__(self, stmt, call, form, dest=None, var=None):
        self.stmt = stmt      # statement cursor (expr, DECL_STMT or RETURN_STMT)
        self.call = call      # CALL_EXPR cursor
        self.form = form      # 'expr', 'assign', 'decl', 'return'
        self.dest = dest      # lvalue cursor for 'assign'
        self.var = var        # Var for 'decl'
        self.call_node = None
        self.resume_node = None
        self.bits = None          # the Cfg's Bits
        self.scope_mask = 0       # the variables in scope at the call, as bits
        self.tail = False
        self.index = 0
        self.block_item = False   # the statement is an item of a compound statement

    @property
    def scope(self):
        """The keys of the variables in scope at the call."""
        return self.bits.keys_of(self.scope_mask)


def normal_form(func, s):
    """If statement `s` is a cps call in normal form, return its CallSite,
    else None."""
    k = s.kind
    if k == K.RETURN_STMT:
        ch = kids(s)
        if ch:
            e = strip_casts(ch[0])
            if e.kind == K.CALL_EXPR and func.is_cps_call_of(e):
                return CallSite(s, e, 'return')
        return None
    if k == K.DECL_STMT:
        ch = kids(s)
        if len(ch) == 1 and ch[0].kind == K.VAR_DECL:
            v = ch[0]
            init = var_init(func.u, v)
            if init is not None:
                e = strip(init)
                # (and no cps call in the bounds of a variably modified type,
                # evaluated before the initialiser: `int (*p)[f()] = g();`)
                bounds = [x for x in kids(v) if x.kind.is_expression() and x is not init]
                if e.kind == K.CALL_EXPR and is_cps_call(e) and \
                        not any(is_cps_call(n) for x in bounds for n, _ in walk(x)):
                    return CallSite(s, e, 'decl', var=func.vars.get(vkey(v)))
        return None
    if k.is_expression():
        e = strip_casts(s)
        if e.kind == K.CALL_EXPR and is_cps_call(e):
            return CallSite(s, e, 'expr')
        if e.kind == K.BINARY_OPERATOR and binop(e) == BO['Assign']:
            l, r = kids(e)
            r = strip(r)
            if r.kind == K.CALL_EXPR and is_cps_call(r):
                return CallSite(s, r, 'assign', dest=l)
    return None


class Cfg:
    """The control-flow graph of a function (or of one statement of it),
    with the variables each node reads and writes and the cps call sites.

    The graph of a whole function numbers only the variables in scope at
    some cps call (`_narrow_to_call_scopes`): its liveness and
    initialisation facts (the bit sets of the dataflow over it) exist for
    those variables alone: another variable (one declared in a block
    without a call) is in none of its sets, which says nothing about it.  The graph
    of a single statement (`root`) numbers every variable it meets."""

    def __init__(self, func, sites=None, root=None):
        """The graph of func's body, or of statement `root` of it alone (its
        entry writes no parameter)."""
        self.func = func
        self.nodes = []
        self.labels = {}
        self.sites = []
        self.entry = self.new('entry')
        self.exit = self.new('exit')
        params = func.params if root is None else []
        for p in params:
            self.entry.writes.add(vkey(p))
        self.bits = Bits()     # the variables' bit numbers for every set of this graph
        self.scope = [self.bits.mask(vkey(p) for p in params)]   # bits per open block
        self._visible = self.scope[0]
        self.brk = []
        self.cont = []
        self.switch = []
        self.gotos = []
        self.computed_gotos = []
        self.addr_labels = []
        self._block_item = False
        body = func.body if root is None else root
        # the id of the first node of each statement of the body's block
        # (nodes are numbered as they are made: statement i's are those
        # from items[i] to items[i + 1])
        self.items = []
        self._root = body
        if body is not None:
            last = self.stmt(body, [self.entry])
            self.link(last, self.exit)
        for n, lab in self.gotos:
            t = self.labels.get(lab)
            if t is not None:
                self.edge(n, t)
        for n in self.computed_gotos:
            for t in self.labels.values():
                self.edge(n, t)
        for n in self.nodes:
            for s in n.succ:
                s.pred.append(n)
        if root is None:
            self._narrow_to_call_scopes()

    def _narrow_to_call_scopes(self):
        """Number again only the variables in scope at some cps call: every
        question about a whole function's graph is asked at its call sites
        (what a resume point saves, what is boxed), about the variables in
        scope there, and each variable's facts are independent of the
        others'.  The bit sets then stay as small as the frames, though a
        function may declare many more locals, in blocks without calls (a
        set over all of them at every node grows with the square of the
        function's length: a possibly-initialised set keeps every variable
        met)."""
        wide = self.bits
        relevant = 0
        for site in self.sites:
            relevant |= site.scope_mask
        self.bits = Bits(wide.ordered(relevant))
        kept = wide.flags(relevant)
        everything = all(kept)      # (then the numbers stay as they are)
        places = None if everything else renumbering(kept)
        for site in self.sites:
            site.bits = self.bits
            if not everything:
                site.scope_mask = extract(site.scope_mask, kept, places)
        self.scope = self._visible = None

    def new(self, kind, cursor=None):
        n = Node(len(self.nodes), kind, cursor)
        self.nodes.append(n)
        return n

    def edge(self, a, b):
        if b not in a.succ:
            a.succ.append(b)

    def link(self, preds, n):
        for p in preds:
            self.edge(p, n)

    def declare(self, key):
        """key is in scope until the end of the innermost open block."""
        m = self.bits.mask((key,))
        if not self._visible & m:
            self.scope[-1] |= m
            self._visible |= m

    def open_scope(self):
        self.scope.append(0)

    def close_scope(self):
        self._visible &= ~self.scope.pop()

    def expr(self, e, preds, kind='expr'):
        n = self.new(kind, e)
        u, w, kl, a = expr_refs(self.func, e)
        n.uses = u
        n.defs = set(kl)
        # reads of the killed variable on its own left side are not uses
        for v in kl:
            n.uses.discard(v) if self._only_lhs(e, v) else None
        n.writes = w | kl
        self.link(preds, n)
        return n

    def _only_lhs(self, e, key):
        """True if every reference to `key` in e is a top-level assignment
        target."""
        count_all = 0
        for n, p in walk(e, skip_spawn=False):
            if n.kind == K.DECL_REF_EXPR:
                v = self.func.var_of(n)
                if v is not None and v.key == key:
                    count_all += 1
        count_lhs = 0
        for l in always_assigned(e):
            v = self.func.var_of(l)
            if v is not None and v.key == key:
                count_lhs += 1
        return count_all == count_lhs

    def callsite(self, site, preds):
        f = self.func
        c = self.new('call', site.stmt)
        r = self.new('resume', site.stmt)
        # (the callee and the arguments: the call node itself reads and
        # writes nothing, so the call's references are theirs)
        c.uses, c.writes, _, _ = expr_refs(f, site.call)
        self.link(preds, c)
        self.edge(c, r)
        if site.form == 'assign':
            uu, ww, kl, _ = expr_refs(f, site.dest)
            ds = strip(site.dest)
            if ds.kind == K.DECL_REF_EXPR and f.var_of(ds) is not None:
                r.defs = {f.var_of(ds).key}
                r.writes = set(r.defs)
            else:
                # `s.m = f()`, `a[i] = f()`: a part of s or a is written
                base = lvalue_base(f, site.dest)
                r.uses = uu
                r.writes = ww | ({base.key} if base is not None else set())
        elif site.form == 'decl' and site.var is not None:
            r.defs = {site.var.key}
            r.writes = {site.var.key}
        site.call_node, site.resume_node = c, r
        c.info = r.info = site
        site.bits = self.bits
        site.scope_mask = self._visible
        self.sites.append(site)
        if site.form == 'return':
            self.edge(r, self.exit)
            return []
        return [r]

    def stmt(self, s, preds):
        """Add statement s reached from preds; return the list of nodes
        falling through out of s."""
        k = s.kind
        f = self.func
        block_item, self._block_item = self._block_item, False
        site = normal_form(f, s)
        if site is not None:
            site.block_item = block_item
            if site.form == 'decl' and site.var is not None:
                self.declare(site.var.key)
            return self.callsite(site, preds)
        if k == K.COMPOUND_STMT:
            self.open_scope()
            cur = preds
            top = s is self._root
            for x in kids(s):
                self._block_item = True
                if top:
                    self.items.append(len(self.nodes))
                cur = self.stmt(x, cur)
            self.close_scope()
            return cur
        if k == K.DECL_STMT:
            cur = preds
            for v in kids(s):
                if v.kind not in (K.VAR_DECL, K.TYPEDEF_DECL):
                    continue
                init = var_init(f.u, v) if v.kind == K.VAR_DECL else None
                if v.kind == K.VAR_DECL and is_local_var(v, f.c):
                    self.declare(vkey(v))
                # the array bounds of a variably modified type (`int v[n]`,
                # `int (*p)[n]`, `typedef int t[n]`) are read at the
                # declaration, before the initialiser
                for b in kids(v):
                    if b.kind.is_expression() and (init is None or b != init):
                        cur = [self.expr(b, cur)]
                if init is not None:
                    key = vkey(v)
                    n = self.expr(init, cur)
                    if key in f.vars:
                        n.defs.add(key)
                        n.writes.add(key)
                    cur = [n]
            return cur
        if spawn_body(s) is not None:
            n = self.new('expr', s)
            body = spawn_body(s)
            u, w, _, _ = expr_refs(f, body)
            n.uses, n.writes = u, w
            self.link(preds, n)
            return [n]
        if k == K.IF_STMT:
            ch = kids(s)
            cond = self.expr(ch[0], preds)
            out = self.stmt(ch[1], [cond])
            if len(ch) > 2:
                out = out + self.stmt(ch[2], [cond])
            else:
                out = out + [cond]
            return out
        if k == K.WHILE_STMT:
            ch = kids(s)
            head = self.new('nop', s)
            self.link(preds, head)
            cond = self.expr(ch[0], [head])
            self.brk.append([])
            self.cont.append(head)
            out = self.stmt(ch[1], [cond])
            self.link(out, head)
            self.cont.pop()
            return [cond] + self.brk.pop()
        if k == K.DO_STMT:
            ch = kids(s)
            head = self.new('nop', s)
            self.link(preds, head)
            condhead = self.new('nop', s)
            self.brk.append([])
            self.cont.append(condhead)
            out = self.stmt(ch[0], [head])
            self.link(out, condhead)
            cond = self.expr(ch[1], [condhead])
            self.edge(cond, head)
            self.cont.pop()
            return [cond] + self.brk.pop()
        if k == K.FOR_STMT:
            init, cond, inc, body = for_parts(self.func.u, s)
            self.open_scope()
            cur = preds
            if init is not None:
                if init.kind == K.DECL_STMT:
                    cur = self.stmt(init, cur)
                else:
                    cur = [self.expr(init, cur)]
            head = self.new('nop', s)
            self.link(cur, head)
            if cond is not None:
                c = self.expr(cond, [head])
                exits = [c]
                start = [c]
            else:
                exits = []
                start = [head]
            inchead = self.new('nop', s)
            self.brk.append([])
            self.cont.append(inchead)
            out = self.stmt(body, start)
            self.link(out, inchead)
            if inc is not None:
                i = self.expr(inc, [inchead])
                self.edge(i, head)
            else:
                self.edge(inchead, head)
            self.cont.pop()
            self.close_scope()
            return exits + self.brk.pop()
        if k == K.SWITCH_STMT:
            ch = kids(s)
            cond = self.expr(ch[0], preds)
            self.brk.append([])
            self.switch.append([cond, False])
            out = self.stmt(ch[-1], [])
            sw = self.switch.pop()
            res = out + self.brk.pop()
            if not sw[1]:
                res.append(cond)
            return res
        if k in (K.CASE_STMT, K.DEFAULT_STMT):
            n = self.new('nop', s)
            self.link(preds, n)
            if self.switch:
                self.edge(self.switch[-1][0], n)
                if k == K.DEFAULT_STMT:
                    self.switch[-1][1] = True
            ch = kids(s)
            return self.stmt(ch[-1], [n])
        if k == K.LABEL_STMT:
            n = self.labels.get(s.spelling)
            if n is None:
                n = self.new('nop', s)
                self.labels[s.spelling] = n
            self.link(preds, n)
            ch = kids(s)
            return self.stmt(ch[-1], [n]) if ch else [n]
        if k == K.GOTO_STMT:
            n = self.new('nop', s)
            self.link(preds, n)
            ch = kids(s)
            lab = ch[0].spelling if ch else None
            self.gotos.append((n, lab))
            return []
        if k == K.INDIRECT_GOTO_STMT:
            n = self.expr(kids(s)[0], preds)
            self.computed_gotos.append(n)
            return []
        if k == K.BREAK_STMT:
            if self.brk:
                self.brk[-1].extend(preds)
            return []
        if k == K.CONTINUE_STMT:
            if self.cont:
                self.link(preds, self.cont[-1])
            return []
        if k == K.RETURN_STMT:
            ch = kids(s)
            if ch:
                n = self.expr(ch[0], preds)
                self.edge(n, self.exit)
            else:
                self.link(preds, self.exit)
            return []
        if k == K.NULL_STMT:
            return preds
        if k.is_expression():
            return [self.expr(s, preds)]
        # anything else (asm, nested declarations...): an opaque node
        n = self.new('expr', s)
        u, w, _, _ = expr_refs(f, s)
        n.uses, n.writes = u, w
        self.link(preds, n)
        return [n]


def function_graph(func):
    """The graph of func's whole body (`Cfg(func)`), made once per Func, that
    is once per function and parse: boxing asks it (the arrays live across a
    call), and so do the emitter and the checks of both passes' invariants,
    of the same parse when boxing changed nothing in the function.  Its
    users read it; `split` (emit/split.py) numbers its sites, the same way
    each time."""
    g = func.__dict__.get(_GRAPH)
    if g is None:
        g = func.__dict__[_GRAPH] = Cfg(func)
    return g


_GRAPH = 'graph'


def for_parts(u, s):
    """(init, cond, inc, body) cursors of a FOR_STMT (None when absent),
    told apart by the positions of the `;` in the header."""
    ch = kids(s)
    body = ch[-1]
    text = u.text
    a = s.extent.start.offset
    i = text.index(b'(', a)
    semis = []
    depth = 0
    j = i
    end = body.extent.start.offset
    while j < end:
        ch_ = text[j:j + 1]
        if ch_ in (b'(', b'[', b'{'):
            depth += 1
        elif ch_ in (b')', b']', b'}'):
            depth -= 1
            if depth == 0:
                rparen = j
                break
        elif ch_ == b';' and depth == 1:
            semis.append(j)
        elif ch_ in (b'"', b"'"):
            q = ch_
            j += 1
            while j < end and text[j:j + 1] != q:
                if text[j:j + 1] == b'\\':
                    j += 1
                j += 1
        j += 1
    else:
        rparen = end
    init = cond = inc = None
    if len(semis) < 2:
        # macro-produced header: assume present parts in order
        parts = ch[:-1]
        return (parts + [None, None, None])[:3] + [body]
    s1, s2 = semis[0], semis[1]
    for c in ch[:-1]:
        o = c.extent.start.offset
        if o < s1 or (c.kind == K.DECL_STMT and o < s2 and c.extent.end.offset <= s1 + 1):
            init = c
        elif o < s2:
            cond = c
        else:
            inc = c
    return init, cond, inc, body
