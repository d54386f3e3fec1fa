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
such object of the user's: the defer and the bounce always (the defer copies
the parameters, whose own storage is the caller's; the bounce pops them and
calls the entry); the others when the body is not inlined into
them (a `noinline` body), or when the body has no such object
(`holds_stack_objects`).  A body keeps the user's flags."""
import re

from .. import frontend as fe
from ..clang_types import (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_RECORD,
                           TK_VARIABLEARRAY, tkind)
from ..cursors import UO, kids, unop
from ..analysis.func import lvalue_base
from ..analysis.syntax import walk

K = fe.K
SC = fe.ci.StorageClass

UNGUARDED = 'CPC_UNGUARDED '
# the user's own request for a canary (a code attribute, frame.Signature.code)
STACK_PROTECT_RE = re.compile(r'\b(__)?stack_protect(__)?\b')

ARRAYS = (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_VARIABLEARRAY)
ALLOCA = ('alloca', '__builtin_alloca', '__builtin_alloca_with_align',
          '__builtin_alloca_with_align_and_max')


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
            if unop(n) == UO['AddrOf'] and (not kids(n) or lvalue_base(f, kids(n)[0]) is not None):
                return True
        elif k == K.CALL_EXPR:
            if n.spelling in ALLOCA:
                return True
        elif k in (K.COMPOUND_LITERAL_EXPR, K.ASM_STMT, K.MS_ASM_STMT):
            return True
    return False


def stub_attribute(f, inline, code):
    """What goes in front of the entry and the resume functions
    of cps function f (whose body is `inline`, with code attributes
    `code`): UNGUARDED, or '' when they may hold a stack object of the
    body's or f asks for a canary (`stack_protect`)."""
    if STACK_PROTECT_RE.search(code) or (inline and holds_stack_objects(f)):
        return ''
    return UNGUARDED


def defer_attribute(code):
    """What goes in front of the defer and the bounce (module docstring)."""
    return '' if STACK_PROTECT_RE.search(code) else UNGUARDED
