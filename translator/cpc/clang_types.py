"""Clang's types as the passes read them: type kinds by number (`tkind`,
`TK_*`, some of which the bindings lack), sugar stripped (`strip_sugar`),
the cps function types (`is_cps_function_type`, `is_cps_type`), arrays'
element types, adjusted parameter types and a type's name as the
programmer reads it.
"""
import ctypes
import re

import clang.cindex as ci

from .libclang import lib


# Type kinds (CXTypeKind), compared by number: the bindings' TypeKind lacks
# some of them (attributed, btf tag) in the versions the project supports.
TK_INVALID = 0
TK_UNEXPOSED = 1
TK_VOID = 2
TK_BOOL = 3
TK_LAST_BUILTIN = 39          # kinds up to this one are builtin scalar types (or void)
TK_COMPLEX = 100
TK_POINTER = 101
TK_RECORD = 105
TK_ENUM = 106
TK_TYPEDEF = 107
TK_FUNCTIONNOPROTO = 110
TK_FUNCTIONPROTO = 111
TK_CONSTANTARRAY = 112
TK_VECTOR = 113
TK_INCOMPLETEARRAY = 114
TK_VARIABLEARRAY = 115
TK_DEPENDENTSIZEDARRAY = 116
TK_ELABORATED = 119
TK_ATTRIBUTED = 163
TK_ATOMIC = 177
TK_BTF_TAG = 178


def is_builtin_kind(k):
    """A builtin type kind (void, integers, floating types), or the invalid
    or unexposed kinds, which sugar never hides."""
    return k <= TK_LAST_BUILTIN


def tkind(t):
    return t._kind_id


def modified_type(t):
    r = lib().clang_Type_getModifiedType(t)
    r._tu = t._tu
    return r


def atomic_value_type(t):
    """The T of `_Atomic(T)`."""
    r = lib().clang_Type_getValueType(t)
    r._tu = t._tu
    return r


def element_type(t):
    """The element type of array type t (the bindings' `element_type` fails
    on an element type of a kind they do not know, such as the cps tag)."""
    r = lib().clang_getElementType(t)
    r._tu = t._tu
    return r


def sugar_step(t):
    """(what t stands for, whether t is the cps tag) when t is a btf tag,
    attributed, typedef or elaborated type; else None."""
    k = tkind(t)
    if k == TK_BTF_TAG:
        return modified_type(t), 'cpc_cps' in t.spelling
    if k == TK_ATTRIBUTED:
        return modified_type(t), False
    if k == TK_TYPEDEF:
        return t.get_declaration().underlying_typedef_type, False
    if k == TK_ELABORATED:
        return t.get_named_type(), False
    return None


def strip_sugar(t):
    """Remove attributes, typedefs, elaboration, parens; keep the btf tag
    visible: returns (type, tagged)."""
    tagged = False
    for _ in range(64):
        step = sugar_step(t)
        if step is not None:
            t, tag = step
            tagged = tagged or tag
            continue
        k = tkind(t)
        if k == TK_UNEXPOSED:
            # typeof(...) and __typeof__(...) types: their canonical type
            # is what they name (other unexposed types have no better one)
            c = t.get_canonical()
            if tkind(c) in (TK_INVALID, TK_UNEXPOSED):
                break
            t = c
        elif k == TK_INVALID:
            break
        else:
            # Paren types and other sugar: canonical keeps function shape.
            if k in (TK_POINTER, TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO,
                     TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_VARIABLEARRAY,
                     TK_RECORD, TK_ENUM) or is_builtin_kind(k):
                break
            c = t.get_canonical()
            if tkind(c) == k:
                break
            t = c
    return t, tagged


# A data pointer's alignment on the target (the host: cpcc does not cross-compile).
POINTER_ALIGN = ctypes.alignment(ctypes.c_void_p)


class Decayed:
    """The pointer type that C gives a parameter declared with an array or
    function type (`char *argv[]` is `char **`, `va_list ap` a pointer to
    its element): Clang's bindings give only the written type, and have no
    way to make a pointer type.  It answers what the translator asks of a
    pointer type."""

    _kind_id = TK_POINTER

    def __init__(self, written):
        self.written = written
        t, _ = strip_sugar(written)
        k = tkind(t)
        self.pointee = element_type(t) if k in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY,
                                                 TK_VARIABLEARRAY) else written

    @property
    def kind(self):
        return ci.TypeKind.POINTER

    @property
    def spelling(self):
        p = self.pointee.spelling
        if tkind(strip_sugar(self.pointee)[0]) in (TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO,
                                                   TK_CONSTANTARRAY, TK_INCOMPLETEARRAY):
            return p.replace('(', '(*)(', 1) if '(' in p else p + ' (*)'
        return p + ' *'

    def get_pointee(self):
        return self.pointee

    def get_canonical(self):
        return self

    def _unqualified(self):
        return False

    # (the adjusted pointer has no qualifier of its own)
    is_const_qualified = is_volatile_qualified = is_restrict_qualified = _unqualified

    def get_align(self):
        return POINTER_ALIGN

    def get_declaration(self):
        return None


def adjusted_param_type(t):
    """A parameter's type as C adjusts it."""
    k = tkind(strip_sugar(t)[0])
    if k in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_VARIABLEARRAY,
             TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO):
        return Decayed(t)
    return t


def param_types(ft):
    """The parameter types of function prototype type `ft`, in order.  (The
    bindings' argument_types() defines a new class at each call, a cost per
    call site, and the classes stay until the cycle collector runs.)"""
    if tkind(ft) != TK_FUNCTIONPROTO:
        raise ValueError('param_types of a type without a prototype')
    f = ci.conf.lib                 # (the bindings' signatures: Type results)
    return [f.clang_getArgType(ft, i) for i in range(f.clang_getNumArgTypes(ft))]


def function_type_of(t):
    """The function type that a callee of type `t` designates (through
    pointers and sugar), or None."""
    return _designated_function(t)[0]


def _designated_function(t):
    """(the function type t designates through pointers and sugar, whether
    the cps tag is on it), or (None, False)."""
    for _ in range(8):
        t, tagged = strip_sugar(t)
        k = tkind(t)
        if k in (TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO):
            return t, tagged
        if k == TK_POINTER:
            t = t.get_pointee()
            continue
        break
    return None, False


def is_cps_function_type(ft):
    """A function type is cps when its result type carries the cpc_cps tag
    (the attribute binds to the declaration specifiers), looking through
    pointers of the result (`cps char *f()`) but not into function types;
    or when the function type itself carries it (`typedef int ft(int);
    cps ft f;`)."""
    if ft is None:
        return False
    if strip_sugar(ft)[1]:
        # the function type itself is tagged: `cps ft f;` with a function
        # typedef `ft` (the attribute binds to the typedef's type)
        return True
    r = ft.get_result()
    for _ in range(16):
        step = sugar_step(r)
        if step is not None:
            if step[1]:
                return True
            r = step[0]
            continue
        k = tkind(r)
        if k == TK_POINTER:
            r = r.get_pointee()
        elif k in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY):
            r = element_type(r)
        else:
            return False
    return False


def is_cps_type(t):
    """t designates a cps function (through pointers and sugar): its
    function type is cps, or carries the tag itself (`cps ft *p`)."""
    ft, tagged = _designated_function(t)
    return ft is not None and (tagged or is_cps_function_type(ft))


def type_name(t):
    """A type as the programmer reads it: the cps tag spelled `cps`, or a
    typedef name marked `(cps)` when the tag hides behind it."""
    raw = t.spelling
    s = re.sub(r'\s*__attribute__\(\(btf_type_tag\("cpc_cps"\)\)\)', '', raw)
    s = re.sub(r'\s+', ' ', s).strip()
    if 'cpc_cps' in raw:
        return 'cps ' + s
    if is_cps_type(t):
        return s + ' (cps)'
    return s
