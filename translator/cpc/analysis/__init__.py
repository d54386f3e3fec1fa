"""Shared analyses over Clang's AST of one function.

Invariant: nothing here changes the program.  `Func` gathers a function's
cps calls (calls whose callee has a cps function type, outside `sizeof` and
outside spawned statements), its local variables and every reference to
them; `Cfg` is the function's control flow graph at the granularity of
expressions (if/loops/switch with fall-through and nested cases/goto/labels/
break/continue/return; a cps call statement is two nodes, the call and the
resume point), on which `liveness` and `possibly_initialised` compute the
usual backward and forward data-flow facts.  Both analyses over-approximate:
a variable reported dead is dead, a variable reported uninitialised has no
assignment on any path.
"""
import bisect
import functools
import re

from .. import clex
from .. import frontend as fe
from .. import ctype
from .. import rewrite as rw

K = fe.K

LOOP_KINDS = (K.WHILE_STMT, K.DO_STMT, K.FOR_STMT)


kids = fe.kids     # the cached list: never modify it


def strip(c):
    """Skip parentheses and implicit casts (UNEXPOSED_EXPR with one child
    spanning the same text)."""
    while True:
        kid = c._kind_id
        if kid == _PAREN_ID:
            c = kids(c)[0]
            continue
        if kid == _UNEXPOSED_ID:
            inner = _implicit_operand(c)
            if inner is not None:
                c = inner
                continue
        return c


_PAREN_ID = K.PAREN_EXPR.value
_UNEXPOSED_ID = K.UNEXPOSED_EXPR.value


def _implicit_operand(c):
    """The one child of UNEXPOSED_EXPR c spanning the same text, or None
    (once per node: the comparison of extents is a call into libclang)."""
    return fe.once_per_cursor(c, 'implicit operand', _implicit_operand_of)


def _implicit_operand_of(c):
    ch = kids(c)
    # (equal ranges are equal bytes: what clang_equalRanges compares)
    return ch[0] if len(ch) == 1 and bytes(ch[0].extent) == bytes(c.extent) else None


def strip_casts(c):
    """Like strip, and explicit casts to void too."""
    c = strip(c)
    while c.kind == K.CSTYLE_CAST_EXPR:
        ch = kids(c)
        if ctype.is_void(c.type):
            c = strip(ch[-1])
        else:
            break
    return c


def node_id(c):
    """A key identifying cursor c within one parse."""
    return (c.kind, c.extent.start.offset, c.extent.end.offset, c.hash)


def callee_of(call):
    return kids(call)[0]


def args_of(call):
    return kids(call)[1:]


def callee_decl(call):
    """The FUNCTION_DECL a call names directly, or None."""
    memo = fe.adopt(call).__dict__        # (kept on the cursor itself)
    try:
        return memo['callee_decl']
    except KeyError:
        pass
    r = None
    c = strip(callee_of(call))
    if c.kind == K.DECL_REF_EXPR:
        d = c.referenced
        if d is not None and d.kind == K.FUNCTION_DECL:
            r = d
    memo['callee_decl'] = r
    return r


def parse_cache(tu):
    """Facts about the declarations of one parse, keyed by the cursor's
    identity (any cursor object that designates the declaration); kept on
    the translation unit's object, so they live as long as the parse."""
    try:
        return tu.cpc_facts
    except AttributeError:
        c = tu.cpc_facts = {}
        return c


def decl_fact(d, what, compute):
    """compute(d), once per declaration and parse (whatever cursor object
    designates it: the key is the cursor's bytes, kind and data)."""
    cache = parse_cache(d._tu)
    key = (what, bytes(d))
    try:
        return cache[key]
    except KeyError:
        r = cache[key] = compute(d)
        return r


def attributes(decl):
    """The GNU attributes written on declaration `decl`, as (name, text) pairs
    (`('visibility', 'visibility("hidden")')`), read from their spelling: one
    written through a macro (`#define WEAK __attribute__((weak))`) is read
    in the macro's definition.  Attributes Clang ignores are not seen."""
    out = []
    for k in kids(decl):
        if not k.kind.is_attribute():
            continue
        if k.kind == K.VISIBILITY_ATTR:
            # (also set by `#pragma GCC visibility push(...)` around an
            # earlier declaration: its place is the pragma's; its value is
            # its spelling)
            out.append(('visibility', 'visibility("%s")' % k.spelling))
            continue
        # (a macro's tokens run from its definition to its use: read up to
        # the end of the attribute, never all of them)
        tokens = k.get_tokens()
        name, paren = next(tokens, None), next(tokens, None)
        if name is None or not re.match(r'[A-Za-z_]\w*$', name.spelling):
            continue
        text = [name.spelling]
        if paren is not None and paren.spelling == '(':
            depth = 1
            text.append('(')
            for t in tokens:
                text.append(t.spelling)
                depth += {'(': 1, ')': -1}.get(t.spelling, 0)
                if depth == 0:
                    break
        out.append((name.spelling.strip('_'), ' '.join(text)))
    return out


_ATTRIBUTE_KEYWORDS = (b'__attribute__', b'__attribute')


def attributes_written(text):
    """The GNU attributes of the `__attribute__((...))` specifiers written in
    `text`, as (name, text) pairs like `attributes`: unlike those, they
    include the attributes Clang ignores (`optimize`), and not those
    written through a macro."""
    toks = clex.tokens(text)
    out = []
    i = 0
    while i < len(toks):
        if not (toks[i].kind == clex.ID and toks[i].text in _ATTRIBUTE_KEYWORDS and
                [t.text for t in toks[i + 1:i + 3]] == [b'(', b'(']):
            i += 1
            continue
        depth, item, j = 0, [], i + 3
        while j < len(toks):
            t = toks[j]
            if t.kind == clex.PUNCT and t.text == b')' and depth == 0:
                break
            if t.kind == clex.PUNCT and t.text == b',' and depth == 0:
                _attribute_item(item, out)
                item = []
            else:
                depth += {b'(': 1, b')': -1}.get(t.text, 0) if t.kind == clex.PUNCT else 0
                item.append(t)
            j += 1
        _attribute_item(item, out)
        i = j + 2
    return out


def _attribute_item(toks, out):
    if toks and toks[0].kind == clex.ID:
        out.append((toks[0].text.decode().strip('_'),
                    ' '.join(t.text.decode('utf-8', 'surrogateescape') for t in toks)))


# GNU attributes that say how a function's code is compiled.  Every function
# the translator makes of a function's code takes them (a cps function's
# entry, body, resume functions, bounce and defer, which pass its arguments,
# and the functions spawned statements become), or an SSE intrinsic of a
# `target("sse4.2")` function does not build and `optimize("wrapv")`
# computes something else.
CODE_ATTRIBUTES = {
    'target', 'optimize', 'no_sanitize', 'no_sanitize_address', 'no_address_safety_analysis',
    'no_sanitize_thread', 'no_sanitize_undefined', 'no_sanitize_coverage',
    'no_instrument_function', 'no_profile_instrument_function', 'no_stack_protector',
    'stack_protect', 'no_split_stack', 'no_stack_limit', 'zero_call_used_regs',
    'indirect_branch', 'function_return', 'nocf_check', 'fentry_name', 'fentry_section'}


def code_attributes_text(u, decl):
    """`__attribute__((...)) ` with the CODE_ATTRIBUTES of function decl, or
    ''.  Those Clang ignores (`optimize`) are read where they are written,
    on any declaration of the function in the main file."""
    cache = parse_cache(u.tu)
    decls = cache.get('function declarations')
    if decls is None:
        decls = cache['function declarations'] = {}
        for d in u.top():
            if d.kind == K.FUNCTION_DECL and u.in_main_file(d):
                decls.setdefault(d.canonical.hash, []).append(d)
    found = list(attributes(decl))
    for d in decls.get(decl.canonical.hash, ()):
        found += attributes_written(u.text[rw.start(d):_head_end(u, d)])
    kept = list(dict.fromkeys(text for name, text in found if name in CODE_ATTRIBUTES))
    return '__attribute__((%s)) ' % ', '.join(kept) if kept else ''


def _head_end(u, d):
    """Where function declaration d's head ends: its body, or the end of the
    attributes after its declarator."""
    body = [k for k in kids(d) if k.kind == K.COMPOUND_STMT] if d.is_definition() else []
    if body:
        return body[-1].extent.start.offset
    return rw.after_attributes(u.text, d.extent.end.offset)


def selectable(generic, association):
    """Whether `_Generic` selection `generic` may select `association` (one
    of its expressions): the selection has the type of the one it selects."""
    return association.type.get_canonical().spelling == generic.type.get_canonical().spelling


def is_choose_expr(u, n):
    """Whether expression n is a `__builtin_choose_expr(c, a, b)` (Clang
    shows it as an unexposed expression of three operands)."""
    return len(kids(n)) == 3 and u.text.startswith(b'__builtin_choose_expr', n.extent.start.offset)


def is_cps_call(c):
    if c.kind != K.CALL_EXPR:
        return False
    ch = kids(c)
    if not ch:
        return False
    d = callee_decl(c)
    if d is not None:
        return decl_fact(d, 'cps', _cps_function)
    return fe.is_cps_type(ch[0].type)


def has_annotation(decl, what):
    if decl is None:
        return False
    return decl_fact(decl, what, lambda d: _has_annotation(d, what))


def _has_annotation(decl, what):
    if decl is None:
        return False
    seen = set()
    todo = [decl]
    try:
        d = decl.get_definition()
        if d is not None:
            todo.append(d)
        todo.append(decl.canonical)
    except Exception:
        pass
    for d in todo:
        for ch in d.get_children():
            if ch.kind == K.ANNOTATE_ATTR and ch.spelling == what:
                return True
    return False


def is_need_cont_call(c):
    return c.kind == K.CALL_EXPR and has_annotation(callee_decl(c), 'cpc_need_cont')


def keyword_statement(c, kind, tag):
    """The children [tag, ;, S] of the expansion `if (tag) ; else S` of a
    statement keyword whose tag is an expression of `kind` named `tag`, or
    None when c is not one."""
    if c.kind != K.IF_STMT:
        return None
    ch = kids(c)
    if len(ch) != 3:
        return None
    cond = strip(ch[0])
    if cond.kind == kind and cond.spelling == tag:
        return ch
    return None


def spawn_body(c):
    """For `cpc_spawn S` return S, else None."""
    ch = keyword_statement(c, K.DECL_REF_EXPR, '__cpc_spawn_tag')
    return ch[2] if ch is not None else None


def linked_sched(c):
    """For `cpc_linked(s) S` the children [tag call, ;, S], else None."""
    return keyword_statement(c, K.CALL_EXPR, '__cpc_linked_tag')


def parents_of(root):
    """{id(node): parent} for the nodes under root (an.walk's, spawned
    statements included): what `ancestors` climbs."""
    return {id(n): p for n, p in walk(root, skip_spawn=False)}


def ancestors(n, parents):
    """The nodes enclosing n, innermost first, up to the root of `parents`."""
    p = parents.get(id(n))
    while p is not None:
        yield p
        p = parents.get(id(p))


def walk(c, skip_spawn=True, into_sizeof=False):
    """Preorder walk yielding (cursor, parent), not entering sizeof/alignof
    operands that are not evaluated (sizeof_evaluated; unless into_sizeof:
    for renaming references), and (when
    skip_spawn) not entering spawned statements.  The passes walk the same
    subtrees (a function's body above all, and each of its expressions)
    again and again within one parse, so every walk is cut from the
    preorder that listing the children made once (frontend.Subtree): the
    slice of the walk's root, less the subtrees this way of walking does
    not enter.  (Nodes and parents come from two lists, not as pairs:
    fewer objects for the collector.)"""
    place = fe.place(c)
    if place is None:
        return _walk(c, skip_spawn, into_sizeof)
    sub, i = place
    nodes, parents = sub.nodes, sub.parents
    e = sub.ends[i]
    starts, closed = _closed(sub)
    k = bisect.bisect_left(starts, i)
    at = i
    ns = ps = None
    while k < len(starts):
        j, f, kid = closed[k]
        if j >= e:
            break
        k += 1
        if j < at:
            continue                # inside a subtree left out already
        if (kid == _SIZEOF_ID and not into_sizeof) or (kid == _IF_ID and skip_spawn):
            if ns is None:
                ns, ps = nodes[at:j + 1], parents[at:j + 1]
            else:
                ns += nodes[at:j + 1]
                ps += parents[at:j + 1]
            at = f
    if ns is None:
        if i == 0:
            return zip(nodes, parents)      # the whole subtree (the root's parent: None)
        ns, ps = nodes[i:e], parents[i:e]
    else:
        ns += nodes[at:e]
        ps += parents[at:e]
    ps[0] = None
    return zip(ns, ps)


_SUBTREE_CLOSED = 'closed'
_PART_OPS = (fe.UO['Real'], fe.UO['Imag'], fe.UO['Extension'])


def is_part_of(c):
    """`__real__ e`, `__imag__ e` or `__extension__ e`: an lvalue in e's
    storage when e is one."""
    return c._kind_id == _UNOP_ID and fe.unop(c) in _PART_OPS


def _closed(sub):
    """(starts, closed): the nodes of Subtree sub that a walk may not
    enter, in preorder: closed is [(index, end of its subtree, _SIZEOF_ID
    or _IF_ID)] for a sizeof/alignof or a spawned statement, starts their
    indices."""
    memo = sub.memo
    r = memo.get(_SUBTREE_CLOSED)
    if r is None:
        ends = sub.ends
        closed = [(j, ends[j], n._kind_id) for j, n in enumerate(sub.nodes)
                  if (n._kind_id == _SIZEOF_ID and not sizeof_evaluated(n)) or
                  (n._kind_id == _IF_ID and spawn_body(n) is not None)]
        r = memo[_SUBTREE_CLOSED] = ([x[0] for x in closed], closed)
    return r


_SIZEOF_ID = K.CXX_UNARY_EXPR.value


ALIGNOF_KEYWORDS = ('_Alignof', 'alignof', '__alignof__', '__alignof')


def sizeof_evaluated(n):
    """Whether the operand of sizeof/alignof n is evaluated (C11 6.5.3.4):
    never for `_Alignof` (GCC does not read its bounds either), and for sizeof
    when its type is a variable-length array, as in `sizeof v` for a VLA v,
    `sizeof *p` for a pointer to one, or `sizeof(int[n])`, whose bounds are
    read.  Of an operand that is a type name, the array bounds are the
    expression children; they are taken as evaluated whatever the type (a
    constant bound reads no variable)."""
    ch = kids(n)
    if not ch:
        return False
    toks = n.get_tokens()
    keyword = next(toks, None)
    if keyword is not None and keyword.spelling in ALIGNOF_KEYWORDS:
        return False                    # _Alignof never evaluates its operand
    operand = next(toks, None)
    first = ch[0]
    if operand is not None and first.extent.start.offset == operand.extent.start.offset \
            and first.kind.is_expression():
        return ctype.is_vla(first.type)     # an expression
    return any(x.kind.is_expression() for x in ch)      # a type name


_IF_ID = K.IF_STMT.value


def _walk(c, skip_spawn, into_sizeof):
    """walk, stepping the tree (for a cursor listed alone)."""
    stack = [(c, None)]
    pop = stack.pop
    push = stack.append
    while stack:
        n, p = pop()
        yield n, p
        kid = n._kind_id
        if kid == _SIZEOF_ID and not into_sizeof and not sizeof_evaluated(n):
            continue
        if kid == _IF_ID and skip_spawn and spawn_body(n) is not None:
            continue
        for x in reversed(kids(n)):
            push((x, n))


def _decl_key(d):
    """What identifies a declaration's cursor, as clang_equalCursors
    compares them (kind and node, not the declaration-group flag)."""
    dd = d.data
    return (d._kind_id, dd[0], dd[2])


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
        owner == fe.once_per_cursor(func_cursor, 'decl_key', _decl_key)


def vkey(d):
    """The key of a variable declaration within one parse: (offset, name)."""
    cache = parse_cache(d._tu)
    h = ('vkey', bytes(d))          # the cursor's identity
    k = cache.get(h)
    if k is None:
        k = cache[h] = (d.location.offset, d.spelling)
    return k


_CLEANUP_RE = re.compile(rb'^(?:__)?cleanup(?:__)?\s*\(\s*([A-Za-z_$][\w$]*)\s*\)$')


def cleanup_function(u, attr):
    """The name of the function that attribute cursor `attr` makes a
    variable's cleanup (`__attribute__((cleanup(fn)))`), or None."""
    if attr.kind != K.UNEXPOSED_ATTR:
        return None
    m = _CLEANUP_RE.match(u.text[attr.extent.start.offset:attr.extent.end.offset].strip())
    return m.group(1).decode() if m else None


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


def cps_function_defs(u):
    """The definitions of cps functions written in the main file, in
    order (told by their type: the other functions are not analysed)."""
    return [c for c in u.function_defs() if decl_fact(c, 'cps', _cps_function)]


def _cps_function(d):
    return fe.is_cps_function_type(d.type)


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
    def __init__(self, unit, cursor):
        self.u = unit
        self.c = cursor
        self.name = cursor.spelling
        self.is_cps = fe.is_cps_function_type(cursor.type)
        ch = kids(cursor)
        self.body = None
        for x in ch:
            if x.kind == K.COMPOUND_STMT:
                self.body = x
        self.params = [x for x in ch if x.kind == K.PARM_DECL]
        self.vars = {}
        for p in self.params:
            v = Var(p, True, fe.adjusted_param_type(p.type))
            self.vars[v.key] = v
        self.cps_calls = []
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
            elif k == K.CALL_EXPR:
                if is_cps_call(n):
                    self.cps_calls.append(n)
                elif is_need_cont_call(n):
                    self.need_cont_calls.append(n)
            elif k == K.IF_STMT and spawn_body(n) is not None:
                self.spawns.append(n)
        self._cps_ranges = sorted((c.extent.start.offset, c.extent.end.offset)
                                  for c in self.cps_calls)

    def var_of(self, ref):
        """The local Var a DECL_REF_EXPR designates, or None (once per
        reference: the analyses ask again for the same ones)."""
        memo = fe.adopt(ref).__dict__         # (kept on the cursor itself)
        r = memo.get(_VAR_OF)
        if r is not None and r[0] is self:
            return r[1]
        d = ref.referenced
        if d is None or not is_local_var(d, self.c):
            v = None
        else:
            v = self.vars.get(vkey(d))
        memo[_VAR_OF] = (self, v)
        return v

    def contains_cps(self, c):
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
            bt, _ = fe.strip_sugar(b.type)
            if fe.tkind(bt) == fe.TK_POINTER:
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
                op = fe.binop(n)
                if op in fe.ASSIGN_OPS:
                    if op == _ASSIGN:
                        assigns = True
                    v = lvalue_base(func, kids(n)[0])
                    if v is not None:
                        writes.add(v.key)
            elif k == _UNOP_ID:
                op = fe.unop(n)
                if op in fe.INC_DEC_OPS or op == fe.UO['AddrOf']:
                    v = lvalue_base(func, kids(n)[0])
                    if v is not None:
                        writes.add(v.key)
                        if op == fe.UO['AddrOf']:
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


_ASSIGN = fe.BO['Assign']


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
            op = fe.binop(c)
            if op == fe.BO['Assign']:
                l = strip(ch[0])
                if l.kind == K.DECL_REF_EXPR:
                    out.append(l)
                else:
                    stack.append(ch[0])
                stack.append(ch[1])
            elif op in (fe.BO['LAnd'], fe.BO['LOr']):
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


# --------------------------------------------------------------------------
# Control flow graph

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
            if e.kind == K.CALL_EXPR and e in func.cps_calls:
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
                bounds = [x for x in kids(v) if x.kind.is_expression() and
                          node_id(x) != node_id(init)]
                if e.kind == K.CALL_EXPR and is_cps_call(e) and \
                        not any(is_cps_call(n) for x in bounds for n, _ in walk(x)):
                    return CallSite(s, e, 'decl', var=func.vars.get(vkey(v)))
        return None
    if k.is_expression():
        e = strip_casts(s)
        if e.kind == K.CALL_EXPR and is_cps_call(e):
            return CallSite(s, e, 'expr')
        if e.kind == K.BINARY_OPERATOR and fe.binop(e) == fe.BO['Assign']:
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
        for site in self.sites:
            site.bits = self.bits
            site.scope_mask = self.bits.mask(wide.ordered(site.scope_mask))
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
        u = set()
        w = set()
        for part in kids(site.call):
            uu, ww, _, _ = expr_refs(f, part)
            u |= uu
            w |= ww
        c.uses, c.writes = u, w
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
            for x in kids(s):
                self._block_item = True
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


# --------------------------------------------------------------------------
# Data flow

def assigned_anywhere(cfg):
    """Keys of the variables the body of cfg's function may write after its
    entry: assignments, increments, address taken, asm operands (the CFG
    nodes' writes).  A parameter outside this set keeps its entry value."""
    w = set()
    for n in cfg.nodes:
        if n is not cfg.entry:
            w |= n.writes
    return w


class Bits:
    """Sets of variable keys as Python ints: bit i is the i-th key met.
    The data flow over a whole function then costs a few machine words per
    node and step instead of a copy of a set.  Given `keys`, the numbering
    is closed: those keys only, in that order; mask() leaves out the others."""

    def __init__(self, keys=None):
        self.closed = keys is not None
        self.keys = list(keys or ())
        self.index = {k: i for i, k in enumerate(self.keys)}

    def mask(self, keys):
        m = 0
        index = self.index
        for k in keys:
            i = index.get(k)
            if i is None:
                if self.closed:
                    continue
                i = index[k] = len(self.keys)
                self.keys.append(k)
            m |= 1 << i
        return m

    def ordered(self, m):
        """The keys of m, by bit number."""
        out = []
        keys = self.keys
        while m:
            low = m & -m
            out.append(keys[low.bit_length() - 1])
            m ^= low
        return out

    def keys_of(self, m):
        return set(self.ordered(m))


class Facts:
    """A data-flow result: node id -> set of keys, converted from its bit
    set when asked (callers look at a few nodes: the call sites)."""

    def __init__(self, bits, masks):
        self.bits = bits
        self.masks = masks
        self._sets = {}

    def __getitem__(self, node_id):
        try:
            return self._sets[node_id]
        except KeyError:
            r = self._sets[node_id] = self.bits.keys_of(self.masks[node_id])
            return r

    def __len__(self):
        return len(self.masks)


def postorder(cfg):
    """The nodes in depth-first postorder from the entry (iteratively: a
    function can be long), then those the entry does not reach."""
    seen = [False] * len(cfg.nodes)
    out = []
    roots = [cfg.entry] + list(cfg.nodes)
    for root in roots:
        if seen[root.id]:
            continue
        seen[root.id] = True
        stack = [(root, iter(root.succ))]
        while stack:
            n, it = stack[-1]
            for s in it:
                if not seen[s.id]:
                    seen[s.id] = True
                    stack.append((s, iter(s.succ)))
                    break
            else:
                stack.pop()
                out.append(n)
    return out


def _solve(order, flow_from, flow_to, gen, keep):
    """The least fixed point of out[n] = gen[n] | (in[n] & keep[n]) with
    in[n] = OR of out[m] for m in flow_from(n), by sweeps over the nodes in
    `order` (reverse postorder for a forward problem, postorder for a
    backward one, so each node mostly sees its inputs final): a sweep
    computes the nodes whose inputs changed since they were last computed,
    and another sweep follows only when a change flowed backwards (a loop).
    Returns (in, out) as lists of ints indexed by node id."""
    n_nodes = len(order)
    ids = [n.id for n in order]
    rank = [0] * n_nodes
    for r, i in enumerate(ids):
        rank[i] = r
    froms = [None] * n_nodes         # by id: the ids it flows from
    tos = [None] * n_nodes           # by id: the ranks it flows to
    for n in order:
        froms[n.id] = [p.id for p in flow_from(n)]
        tos[n.id] = [rank[s.id] for s in flow_to(n)]
    inn = [0] * n_nodes
    out = [0] * n_nodes
    dirty = [True] * n_nodes         # by rank
    again = True
    while again:
        again = False
        for r in range(n_nodes):
            if not dirty[r]:
                continue
            dirty[r] = False
            i = ids[r]
            m = 0
            for p in froms[i]:
                m |= out[p]
            inn[i] = m
            o = gen[i] | (m & keep[i])
            if o != out[i]:
                out[i] = o
                for t in tos[i]:
                    dirty[t] = True
                    if t <= r:
                        again = True
    return inn, out


def liveness(cfg):
    """(live_in, live_out) per node id (sets of var keys; `.masks` holds
    them as bits of cfg.bits)."""
    bits = cfg.bits
    nodes = cfg.nodes
    uses = [bits.mask(n.uses) for n in nodes]
    kill = [~bits.mask(n.defs) for n in nodes]
    # backward: a node's "in" of the solver is its live_out
    out, inn = _solve(postorder(cfg), lambda n: n.succ, lambda n: n.pred, uses, kill)
    return Facts(bits, inn), Facts(bits, out)


def read_before_written(func, stmt):
    """The keys of func's variables whose value statement `stmt` may read
    before it writes them (live where stmt starts)."""
    cfg = Cfg(func, root=stmt)
    live_in, _ = liveness(cfg)
    return live_in.bits.keys_of(live_in.masks[cfg.entry.id])


def possibly_initialised(cfg):
    """(init_in, init_out) per node id: variables assigned on some path to
    the node."""
    bits = cfg.bits
    nodes = cfg.nodes
    gen = [bits.mask(n.writes) | bits.mask(n.defs) for n in nodes]
    keep = [-1] * len(nodes)
    order = postorder(cfg)
    order.reverse()
    inn, out = _solve(order, lambda n: n.pred, lambda n: n.succ, gen, keep)
    return Facts(bits, inn), Facts(bits, out)
