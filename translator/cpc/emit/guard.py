"""Which functions generated for a cps function go without the stack
protector (CPC_UNGUARDED, runtime/include/cpc/cpc_runtime.h, docs/abi.md).

A stack protector's canary guards the return address against a write that
runs past an object of the function's own frame: an array, or a variable
whose address is taken.  A frame holding no such object has nothing a canary
guards (gcc's -fstack-protector-strong leaves such functions alone), but
-fstack-protector-all, which QEMU builds with, puts one in every function:
for the small functions cpcc writes around each body (its defer, bounce,
entry and resume functions) that is a tenth of the object's code and of
gcc's time on it.  So these functions are unguarded when their code holds no
such object of the user's: the defer always (it copies the parameters, whose
own storage is the caller's); the others when the body is not inlined into
them (a `noinline` body), or when the body has no such object
(`holds_stack_objects`).  A body keeps the user's flags."""
import re

from .. import frontend as fe
from ..clang_types import (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_POINTER, TK_RECORD,
                           TK_VARIABLEARRAY, strip_sugar, tkind)
from ..cursors import UO, kids, unop
from ..analysis.syntax import walk

K = fe.K
SC = fe.ci.StorageClass

UNGUARDED = 'CPC_UNGUARDED '
# the user's own request for a canary (a code attribute, frame.Signature.code)
STACK_PROTECT_RE = re.compile(r'\b(__)?stack_protect(__)?\b')

ARRAYS = (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_VARIABLEARRAY)
ALLOCA = ('alloca', '__builtin_alloca', '__builtin_alloca_with_align',
          '__builtin_alloca_with_align_and_max')
# expressions an lvalue's storage is looked for through, one operand each
THROUGH = (K.PAREN_EXPR, K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR)


def holds_array(t, depth=0):
    """An array, or a struct or union with one (at any depth)."""
    if depth > 32:
        return True
    c = t.get_canonical()
    k = tkind(c)
    if k in ARRAYS:
        return True
    if k != TK_RECORD:
        return False
    return any(holds_array(fld.type, depth + 1) for fld in c.get_fields())


def _is_local(d):
    """Declaration d is an automatic variable or a parameter."""
    if d is None:
        return False
    if d.kind == K.PARM_DECL:
        return True
    return d.kind == K.VAR_DECL and d.storage_class not in (SC.STATIC, SC.EXTERN) and \
        d.semantic_parent is not None and d.semantic_parent.kind == K.FUNCTION_DECL


def _is_pointer(e):
    u, _ = strip_sugar(e.type)
    return tkind(u) == TK_POINTER


def addresses_local(x):
    """Whether lvalue x (the operand of `&`) may be (part of) an automatic
    variable: not when it is reached through a pointer (`*p`, `p->m`,
    `p[i]`) or names a function or a variable with static storage."""
    while True:
        ch = kids(x)
        if x.kind in THROUGH and len(ch) == 1:
            x = ch[0]
        elif x.kind == K.MEMBER_REF_EXPR and ch:
            if _is_pointer(ch[0]):
                return False            # p->m
            x = ch[0]
        elif x.kind == K.ARRAY_SUBSCRIPT_EXPR and len(ch) == 2:
            base = ch[0] if _is_pointer(ch[0]) else ch[1]     # (i[a]: ch[1])
            while base.kind in THROUGH and len(kids(base)) == 1 and _is_pointer(base):
                base = kids(base)[0]
            if _is_pointer(base):
                return False            # p[i]
            x = base
        elif x.kind == K.UNARY_OPERATOR and unop(x) == UO['Deref']:
            return False
        elif x.kind == K.DECL_REF_EXPR:
            return _is_local(x.referenced)
        else:
            return True                 # (what else has an address: kept guarded)


def holds_stack_objects(f):
    """Whether cps function f's code may put in its frame an object a write
    could run past: a local or parameter holding an array, a local whose
    address is taken, alloca, a compound literal, an asm statement (whose
    operands may be in memory)."""
    for n, _ in walk(f.c, skip_spawn=False):
        k = n.kind
        if k == K.VAR_DECL:
            if n.storage_class not in (SC.STATIC, SC.EXTERN) and holds_array(n.type):
                return True
        elif k == K.PARM_DECL:
            # (a parameter declared as an array is a pointer)
            if tkind(n.type.get_canonical()) == TK_RECORD and holds_array(n.type):
                return True
        elif k == K.UNARY_OPERATOR:
            if unop(n) == UO['AddrOf'] and (not kids(n) or addresses_local(kids(n)[0])):
                return True
        elif k == K.CALL_EXPR:
            if n.spelling in ALLOCA:
                return True
        elif k in (K.COMPOUND_LITERAL_EXPR, K.ASM_STMT, K.MS_ASM_STMT):
            return True
    return False


def stub_attribute(f, inline, code):
    """What goes in front of the entry, the bounce and the resume functions
    of cps function f (whose body is `inline`, with code attributes
    `code`): UNGUARDED, or '' when they may hold a stack object of the
    body's or f asks for a canary (`stack_protect`)."""
    if STACK_PROTECT_RE.search(code) or (inline and holds_stack_objects(f)):
        return ''
    return UNGUARDED


def defer_attribute(code):
    """What goes in front of the defer (module docstring)."""
    return '' if STACK_PROTECT_RE.search(code) else UNGUARDED
