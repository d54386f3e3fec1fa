"""Unevaluated operands: a cps call that C or GNU C never makes is not
translated either; only its type matters.  These are the operands of
`sizeof`, `_Alignof` and `typeof` (`__typeof__`) unless their type is a
variable-length array (C11 6.5.3.4p2: its bounds are read), the
controlling expression of `_Generic` and the associations it cannot select
(those whose type is not the selection's), the branch
`__builtin_choose_expr` does not choose, and the arguments of
`__builtin_constant_p`, `__builtin_classify_type` and
`__builtin_object_size` (GCC evaluates none of them).  The generated C
declares no function under a cps function's own name (only its entry
points), so C would see an undeclared function there: an implicit `int`, a
wrong size, silently; and translated, the call would be made.  Each such
call is replaced by an lvalue of its type that C never reads, `(*(T *)0)`,
or `((void)0)` for a void call: `sizeof(make().arr)` becomes
`sizeof((*(struct s *)0).arr)`, `typeof(big())` becomes `typeof((*(long *)0))`.
The name of a cps function there (`sizeof f`, which GNU C makes 1) becomes a
function designator of its type that C never calls, `(*(int (*)(int))0)`.

Invariant of the output: no cps call or cps function's name in an
unevaluated operand (in any function, and at file scope).
"""
from . import cps_free
from . import frontend as fe
from .clang_types import is_cps_function_type
from .analysis.syntax import is_cps_call, unevaluated_operands_in
from .cursors import kids
from . import ctype

K = fe.K


def _is_cps_function_name(n):
    """n names a cps function (`sizeof f`, GNU C's 1, or `typeof(f)`)."""
    if n.kind != K.DECL_REF_EXPR:
        return False
    d = n.referenced
    return d is not None and d.kind == K.FUNCTION_DECL and is_cps_function_type(d.type)


def _outer_cps_calls(root):
    """The cps calls in root that are not inside another one, and the names
    of cps functions outside them (designators of a function the
    generated C does not declare under that name)."""
    stack = [root]
    while stack:
        n = stack.pop()
        if is_cps_call(n) or _is_cps_function_name(n):
            yield n
            continue
        stack.extend(kids(n))


def _stand_in(call):
    """An expression of the call's type (or the function's, for a cps
    function's name: a function designator) that is never evaluated."""
    t = call.type
    if ctype.is_void(t):
        return '((void)0)'
    if call.kind == K.DECL_REF_EXPR:
        return '(*(%s)0)' % ctype.declare_ptr_to(t, '', keep_cps=True)
    return '(*(%s)0)' % ctype.declare(t, '*', keep_cps=True)


def _unevaluated_roots(u):
    """The unevaluated operands of the main file."""
    for top in u.main_top():
        if not cps_free.skipped(u, top):
            yield from unevaluated_operands_in(u, top)


def replace_calls(u):
    edits, seen, errs = [], set(), []
    for root in _unevaluated_roots(u):
        for call in _outer_cps_calls(root):
            where = u.written(call)
            if where is None or where in seen:
                continue      # spelt by a macro: left to the C compiler's message
            seen.add(where)
            try:
                edits.append((where[0], where[1], _stand_in(call)))
            except ctype.Unnameable:
                errs.append(u.diag(call, 'the type of this cps call cannot be named here; '
                                   'use a typedef for it'))
    if errs:
        raise fe.Diags(errs)
    return edits


def check(u):
    return [u.diag(call, 'a cps call remains in an unevaluated operand')
            for root in _unevaluated_roots(u) for call in _outer_cps_calls(root)
            if u.written(call) is not None]
