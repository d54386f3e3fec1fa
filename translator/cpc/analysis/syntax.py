"""Reading Clang's AST of a CPC program: walking a subtree (not into what
is not evaluated, nor into spawned statements), stripping parentheses and
implicit casts, calls and their callees, the statement keywords of CPC
(`cpc_spawn`, `cpc_linked`) in their expansion, and facts kept once per
declaration and parse.

Invariant: nothing here changes the program.
"""
import bisect

from .. import frontend as fe
from ..cursors import ASSIGN_OPS, INC_DEC_OPS, UO, adopt, binop, kids, once_per_cursor, place, unop
from ..clang_types import is_cps_function_type, is_cps_type
from .. import ctype
from ..libclang import integer_value


K = fe.K

LOOP_KINDS = (K.WHILE_STMT, K.DO_STMT, K.FOR_STMT)




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
    return once_per_cursor(c, 'implicit operand', _implicit_operand_of)


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
    memo = adopt(call).__dict__        # (kept on the cursor itself)
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
        return decl_fact(d, 'cps', is_cps_function)
    return is_cps_type(ch[0].type)


def is_cps_function(d):
    return is_cps_function_type(d.type)


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
    """{id(node): parent} for the nodes under root (walk's, spawned
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
    preorder that listing the children made once (cursors.Subtree): the
    slice of the walk's root, less the subtrees this way of walking does
    not enter.  (Nodes and parents come from two lists, not as pairs:
    fewer objects for the collector.)"""
    where = place(c)
    if where is None:
        return _walk(c, skip_spawn, into_sizeof)
    sub, i = where
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
_PART_OPS = (UO['Real'], UO['Imag'], UO['Extension'])


def is_part_of(c):
    """`__real__ e`, `__imag__ e` or `__extension__ e`: an lvalue in e's
    storage when e is one."""
    return c._kind_id == _UNOP_ID and unop(c) in _PART_OPS


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


_UNOP_ID = K.UNARY_OPERATOR.value


def has_side_effects(e):
    """Whether evaluating expression e may change an object or call a
    function: an assignment (`=` or compound: Clang makes the latter a
    COMPOUND_ASSIGNMENT_OPERATOR, never a BINARY_OPERATOR), an increment or
    decrement, a call, or a statement expression (whatever its statements
    do).  Operands that are not evaluated (sizeof of a non-VLA) do not
    count."""
    for n, _ in walk(e, skip_spawn=False):
        k = n.kind
        if k in (K.CALL_EXPR, K.StmtExpr, K.COMPOUND_ASSIGNMENT_OPERATOR):
            return True
        if k == K.BINARY_OPERATOR and binop(n) in ASSIGN_OPS:
            return True
        if k == K.UNARY_OPERATOR and unop(n) in INC_DEC_OPS:
            return True
    return False


TYPEOF_KEYWORDS = (b'typeof', b'__typeof__', b'__typeof')
# GCC builtins that evaluate none of their arguments
UNEVALUATED_ARGUMENTS = ('__builtin_constant_p', '__builtin_classify_type',
                         '__builtin_object_size', '__builtin_dynamic_object_size')


def _keyword_before(text, offset):
    """The identifier that ends just before `offset` (spaces skipped)."""
    i = offset
    while i > 0 and text[i - 1:i] in (b' ', b'\t', b'\n', b'\r'):
        i -= 1
    j = i
    while j > 0 and (text[j - 1:j].isalnum() or text[j - 1:j] == b'_'):
        j -= 1
    return text[j:i]


def _spelt(u):
    """Whether u's text spells `typeof` and `__builtin_choose_expr` (asked
    once per unit: the text of a parse never changes)."""
    d = u.__dict__
    try:
        return d['cpc_spelt_unevaluated']
    except KeyError:
        r = d['cpc_spelt_unevaluated'] = (b'typeof' in u.text,
                                          b'__builtin_choose_expr' in u.text)
        return r


def unevaluated_operands_in(u, root):
    """unevaluated_operands(u, root) as a list, made once per cursor and
    parse (the typecheck and unevaluated passes both ask it of each
    function definition of the main file)."""
    return once_per_cursor(root, 'unevaluated operands',
                           lambda r: list(unevaluated_operands(u, r)))


def unevaluated_operands(u, root):
    """The operands under root that C or GNU C never evaluates: those of
    `sizeof`, `_Alignof` and `typeof` (`__typeof__`) unless their type is a
    variable-length array (C11 6.5.3.4p2: its bounds are read), the
    controlling expression of `_Generic` and the associations it cannot
    select, the branch `__builtin_choose_expr` does not choose, and the
    arguments of the builtins of UNEVALUATED_ARGUMENTS."""
    # (`typeof` and `__builtin_choose_expr` are recognised by their text in
    # the file: a file that does not spell them has neither)
    typeofs, chooses = _spelt(u)
    for n, _ in walk(root, skip_spawn=False, into_sizeof=True):
        if n.kind == K.CXX_UNARY_EXPR:
            # (the operand of a variable-length array type is evaluated)
            if not sizeof_evaluated(n):
                yield from (x for x in kids(n) if x.kind.is_expression())
        elif n.kind == K.PAREN_EXPR:
            if typeofs and \
                    _keyword_before(u.text, n.extent.start.offset) in TYPEOF_KEYWORDS and \
                    not ctype.is_vla(n.type):
                yield n
        elif n.kind == K.GENERIC_SELECTION_EXPR:
            ch = kids(n)
            yield ch[0]
            yield from (x for x in ch[1:] if not selectable(n, x))
        elif n.kind == K.UNEXPOSED_EXPR and chooses and is_choose_expr(u, n):
            ch = kids(n)
            value = integer_value(ch[0])
            if value is not None:
                yield ch[2] if value else ch[1]
        elif n.kind == K.CALL_EXPR:
            callee = callee_decl(n)
            if callee is not None and callee.spelling in UNEVALUATED_ARGUMENTS:
                yield from args_of(n)
