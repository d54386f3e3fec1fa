"""What a function is made of: `Func` gathers a function definition's cps
calls (calls whose callee has a cps function type, outside `sizeof` and
outside spawned statements), its local variables (`Var`) and every
reference to them; `expr_refs` tells which variables an expression reads,
may write, surely assigns and takes the address of.

Invariant: nothing here changes the program.
"""
import bisect
import functools

from .. import frontend as fe
from ..clang_types import TK_POINTER, adjusted_param_type, is_cps_function_type, strip_sugar, tkind
from ..cursors import ASSIGN_OPS, BO, INC_DEC_OPS, UO, adopt, binop, kids, once_per_cursor, unop
from .. import ctype
from .gnu_attributes import is_need_cont_call
from .syntax import (
    K, decl_fact, is_cps_call, is_cps_function, is_part_of, parse_cache, spawn_body, strip,
    walk)


def _decl_key(d):
    """What identifies a declaration's cursor, as clang_equalCursors
    compares them (kind and node, not the declaration-group flag)."""
    dd = d.data
    return (d._kind_id, dd[0], dd[2])


def _decl_id(d):
    """What identifies the declaration cursor d designates, from its bytes
    alone: its kind and its node (data[0]), as _decl_key, but with no
    call into the bindings (var_of asks it for every reference)."""
    b = bytes(d)
    return b[:4] + b[8:16]


def _local_owner(d):
    """The key (_decl_key) of the function of which VAR_DECL or PARM_DECL d
    is a local variable or parameter, or None."""
    if d.kind == K.VAR_DECL:
        sc = d.storage_class
        if sc in (fe.ci.StorageClass.STATIC, fe.ci.StorageClass.EXTERN):
            return None
    sp = d.semantic_parent
    if sp is None or sp.kind != K.FUNCTION_DECL:
        return None
    return _decl_key(sp)


def is_local_var(d, func_cursor):
    if d is None or d.kind not in (K.VAR_DECL, K.PARM_DECL):
        return False
    owner = decl_fact(d, 'local_owner', _local_owner)
    return owner is not None and func_cursor.kind == K.FUNCTION_DECL and \
        owner == once_per_cursor(func_cursor, 'decl_key', _decl_key)


def vkey(d):
    """The key of a variable declaration within one parse: (offset, name)."""
    cache = parse_cache(d._tu)
    h = ('vkey', bytes(d))          # the cursor's identity
    k = cache.get(h)
    if k is None:
        k = cache[h] = (d.location.offset, d.spelling)
    return k


def leading_label_declarations(u, body):
    """The `__label__ a, b;` statements (GNU local labels) that open a
    compound statement: GCC wants them before anything else in it, so code
    generated at the start of a body goes after them."""
    out = []
    for s in kids(body):
        if s.kind != K.DECL_STMT or not u.text.startswith(b'__label__', s.extent.start.offset):
            break
        out.append(s)
    return out


def variably_modified_scopes(body):
    """[(declaration, end offset of its scope)] for each variable and
    typedef of a variably modified type declared in a function body."""
    out = []
    for n, p in walk(body, skip_spawn=False):
        if n.kind != K.DECL_STMT or p is None:
            continue
        for d in kids(n):
            if d.kind == K.VAR_DECL:
                t = d.type
            elif d.kind == K.TYPEDEF_DECL:
                t = d.underlying_typedef_type
            else:
                continue
            if ctype.is_variably_modified(t):
                out.append((d, p.extent.end.offset))
    return out


def var_init(u, v):
    """The initialiser expression of a VAR_DECL, or None."""
    ex = [x for x in kids(v) if x.kind.is_expression()]
    if not ex:
        return None
    last = ex[-1]
    j = last.extent.start.offset - 1
    while j > 0 and u.text[j:j + 1] in (b' ', b'\t', b'\n', b'\r'):
        j -= 1
    if u.text[j:j + 1] == b'=':
        return last
    return None


class Var:
    def __init__(self, cursor, is_param, type=None):
        self.cursor = cursor
        self.name = cursor.spelling
        self.type = cursor.type if type is None else type
        self.is_param = is_param
        self.key = vkey(cursor)

    @functools.cached_property
    def is_array(self):
        return ctype.is_array(self.type)

    def __repr__(self):
        return 'Var(%s)' % self.name


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
    params = _parameters(func_cursor)
    if not params or func_cursor.location.file is None:
        return False
    close = u.text.find(b')', func_cursor.location.offset)
    return close >= 0 and all(
        p.extent.start.offset > close or
        (p.spelling and p.extent.start.offset == p.location.offset and
         p.extent.end.offset == p.location.offset + len(p.spelling))
        for p in params)


def _parameters(func_cursor):
    """The PARM_DECLs of a function definition.  A cursor whose children are
    not listed yet (one that get_definition() made, as the type checker has
    for each cps call) gives them as its arguments: listing its children
    would list its whole body, of a large function as long as a pass's walk."""
    listed = func_cursor.__dict__.get('children')
    if listed is None:
        return list(func_cursor.get_arguments())
    return [p for p in listed if p.kind == K.PARM_DECL]


def cps_function_defs(u):
    """The definitions of cps functions written in the main file, in
    order (told by their type: the other functions are not analysed)."""
    return [c for c in u.function_defs() if decl_fact(c, 'cps', is_cps_function)]


def cps_bodies(u, with_calls=False):
    """The Func of each cps function defined in the main file, in order;
    with_calls: only of those that make cps calls (the others have nothing
    to suspend)."""
    for c in cps_function_defs(u):
        f = func(u, c)
        if f.body is not None and (f.cps_calls or not with_calls):
            yield f


def func(u, cursor):
    """The Func of a function definition cursor (computed once per parse:
    a pass that changes nothing keeps the unit, and its analyses)."""
    memo = cursor.memo
    try:
        return memo['func']
    except KeyError:
        f = memo['func'] = Func(u, cursor)
        return f


_VAR_OF = 'var_of'


class Func:
    def release_analysis(self):
        """Drop what this Func holds (its unit is released): its graph's
        nodes refer to each other, and the graph, its Vars and it to each
        other, cycles that only the garbage collector would free."""
        g = self.__dict__.get('graph')
        if g is not None:
            for n in g.nodes:
                n.succ = n.pred = n.info = n.scope = None
            g.__dict__.clear()
        self.__dict__.clear()

    def __init__(self, unit, cursor):
        self.u = unit
        self.c = cursor
        self.name = cursor.spelling
        self.is_cps = is_cps_function_type(cursor.type)
        ch = kids(cursor)
        self.body = None
        for x in ch:
            if x.kind == K.COMPOUND_STMT:
                self.body = x
        self.params = [x for x in ch if x.kind == K.PARM_DECL]
        self.vars = {}
        # the declaration (_decl_id) of each Var that is a local variable
        # of this function (is_local_var) -> its key: var_of finds the Var
        # of a reference with no more questions about the declaration
        self._local_key = {}
        for p in self.params:
            v = Var(p, True, adjusted_param_type(p.type))
            self.vars[v.key] = v
            if is_local_var(p, cursor):
                self._local_key[_decl_id(p)] = v.key
        self.cps_calls = []
        self._with_cps = None       # contains_cps: made when first asked
        self.spawns = []
        self.need_cont_calls = []
        self.calls_in_spawns = []
        if self.body is None:
            return
        for n, parent in walk(self.body):
            k = n.kind
            if k == K.VAR_DECL and is_local_var(n, cursor):
                v = Var(n, False)
                self.vars[v.key] = v
                self._local_key[_decl_id(n)] = v.key
            elif k == K.CALL_EXPR:
                if is_cps_call(n):
                    self.cps_calls.append(n)
                elif is_need_cont_call(n):
                    self.need_cont_calls.append(n)
            elif k == K.IF_STMT and spawn_body(n) is not None:
                self.spawns.append(n)

    def var_of(self, ref):
        """The local Var a DECL_REF_EXPR designates, or None (once per
        reference: the analyses ask again for the same ones)."""
        memo = adopt(ref).__dict__         # (kept on the cursor itself)
        r = memo.get(_VAR_OF)
        if r is not None and r[0] is self:
            return r[1]
        d = ref.referenced
        if d is None:
            v = None
        else:
            key = self._local_key.get(_decl_id(d))
            if key is not None:
                v = self.vars.get(key)
            elif not is_local_var(d, self.c):
                v = None
            else:       # (a local the body's walk does not meet: in a spawned statement)
                v = self.vars.get(vkey(d))
        memo[_VAR_OF] = (self, v)
        return v

    def is_cps_call_of(self, c):
        """Whether node c is one of the function's cps calls: told by
        identity (a parse has one cursor object per node), not by comparing
        cursors, a call into libclang for each pair (`c in cps_calls`
        compared a `return` of a call with every call before it: a function
        with thousands of them took a time quadratic in its length)."""
        ids = self.__dict__.get('_cps_call_ids')
        if ids is None:
            ids = self._cps_call_ids = {id(x) for x in self.cps_calls}
        return id(c) in ids

    def contains_cps(self, c):
        """Whether node c of the body is one of its cps calls or holds one:
        the calls and their ancestors, found once by climbing the parents
        of the listing they come from (cursors.Subtree), which asks libclang
        nothing (the extents of every expression cost more than the rest
        of the normalisation); by the extents when a call was listed
        apart."""
        within = self._with_cps
        if within is None:
            within = self._with_cps = self._enclosing_cps()
        if within is not False:
            return id(c) in within
        a, b = c.extent.start.offset, c.extent.end.offset
        ranges = self._cps_ranges
        # calls nest like the text: the first one starting inside c is
        # almost always inside it, so this scans one or two ranges
        i = bisect.bisect_left(ranges, (a, -1))
        while i < len(ranges) and ranges[i][0] <= b:
            if ranges[i][1] <= b:
                return True
            i += 1
        return False

    def _enclosing_cps(self):
        """{id(node)} of the cps calls and the nodes above them, or False
        (then _cps_ranges is made) when a call is not in a listed subtree."""
        out = set()
        for call in self.cps_calls:
            n = call
            while n is not None and id(n) not in out:
                where = n.__dict__.get('place')
                if where is None:
                    self._cps_ranges = sorted((c.extent.start.offset, c.extent.end.offset)
                                              for c in self.cps_calls)
                    return False
                out.add(id(n))
                sub, j = where
                n = sub.parents[j]
        return out


# --------------------------------------------------------------------------
# Variable references of an expression

def lvalue_base(func, c):
    """The local variable of func whose storage lvalue expression c
    designates (through parens, `.` member access, subscripts of arrays,
    GNU's `__real__` and `__imag__` parts and `__extension__`), or None."""
    c = strip(c)
    while True:
        if is_part_of(c):
            c = strip(kids(c)[0])
            continue
        if c.kind == K.MEMBER_REF_EXPR:
            ch = kids(c)
            if not ch:
                return None
            b = ch[0]
            bt, _ = strip_sugar(b.type)
            if tkind(bt) == TK_POINTER:
                return None
            c = strip(b)
            continue
        if c.kind == K.ARRAY_SUBSCRIPT_EXPR:
            # an element of an array object: of a variable, of a member
            # (`s.m[i]`), of an element (`a[i][j]`); not through a pointer
            ch = kids(c)
            b = strip(ch[0])
            if ctype.is_array(b.type):
                c = b
                continue
            return None
        if c.kind == K.DECL_REF_EXPR:
            return func.var_of(c)
        return None


def expr_refs(func, e):
    """(uses, writes, kills, addr) of expression `e`: sets of var keys.
    uses: read (or possibly read); writes: possibly assigned; kills: surely
    assigned before any read at the top level of `e`; addr: address taken
    (or an array decayed)."""
    uses, writes, kills, addr = set(), set(), set(), set()

    def visit(c):
        """Whether c holds an assignment `=` (what always_assigned looks for,
        in a part of what this walk sees)."""
        assigns = False
        for n, parent in walk(c, skip_spawn=False):
            k = n._kind_id
            if k == _DECL_REF_ID:
                v = func.var_of(n)
                if v is not None:
                    uses.add(v.key)
                    if v.is_array:
                        writes.add(v.key)
                        addr.add(v.key)
            elif k == _BINOP_ID or k == _COMPOUND_ASSIGN_ID:
                op = binop(n)
                if op in ASSIGN_OPS:
                    if op == _ASSIGN:
                        assigns = True
                    v = lvalue_base(func, kids(n)[0])
                    if v is not None:
                        writes.add(v.key)
            elif k == _UNOP_ID:
                op = unop(n)
                if op in INC_DEC_OPS or op == UO['AddrOf']:
                    v = lvalue_base(func, kids(n)[0])
                    if v is not None:
                        writes.add(v.key)
                        if op == UO['AddrOf']:
                            addr.add(v.key)
            elif k == _ASM_ID:
                # any variable an asm statement names may be an output
                for r, _ in walk(n, skip_spawn=False):
                    v = func.var_of(r) if r._kind_id == _DECL_REF_ID else None
                    if v is not None:
                        writes.add(v.key)
        return assigns

    if visit(e):
        # kills: `x = e` wherever it is always evaluated
        for l in always_assigned(e):
            v = func.var_of(l)
            if v is not None:
                kills.add(v.key)
    return uses, writes, kills, addr


_ASSIGN = BO['Assign']


_DECL_REF_ID = K.DECL_REF_EXPR.value
_ASM_ID = K.ASM_STMT.value
_BINOP_ID = K.BINARY_OPERATOR.value
_COMPOUND_ASSIGN_ID = K.COMPOUND_ASSIGNMENT_OPERATOR.value
_UNOP_ID = K.UNARY_OPERATOR.value


def always_assigned(e):
    """The variable references (DECL_REF_EXPR) that e assigns with `=`
    whenever it is evaluated: not under the right of `&&`/`||`, the arms of
    `?:`, sizeof or a statement expression."""
    out = []
    stack = [e]
    while stack:
        c = strip(stack.pop())
        k = c.kind
        ch = kids(c)
        if k == K.BINARY_OPERATOR:
            op = binop(c)
            if op == BO['Assign']:
                l = strip(ch[0])
                if l.kind == K.DECL_REF_EXPR:
                    out.append(l)
                else:
                    stack.append(ch[0])
                stack.append(ch[1])
            elif op in (BO['LAnd'], BO['LOr']):
                stack.append(ch[0])
            else:
                stack.extend(ch)
        elif k == K.CONDITIONAL_OPERATOR:
            stack.append(ch[0])
        elif k in (K.COMPOUND_ASSIGNMENT_OPERATOR, K.UNARY_OPERATOR, K.CALL_EXPR,
                   K.ARRAY_SUBSCRIPT_EXPR, K.MEMBER_REF_EXPR, K.PAREN_EXPR):
            stack.extend(ch)
        elif k == K.CSTYLE_CAST_EXPR and ch:
            stack.append(ch[-1])
        elif k == K.UNEXPOSED_EXPR and len(ch) == 1:
            stack.append(ch[0])
    return out
