"""C declarators from Clang types, in C mode.

Invariant: `declare(t, name)` returns a declaration of `name` with type `t`
that means the same type in the generated C.  The CPC keywords are gone: a
cps function type keeps its declared, native-looking shape (`cps int (*p)(int)`
is `int (*p)(int)`), exactly as headers read in C mode see it, so that every
stored cps function pointer has one C type everywhere; only a call converts
it to its entry point's type, `abi_pointer(ft)`, the continuation first and
returning one.  Types that cannot be named at file scope raise `Unnameable`.
"""
import re

from . import frontend as fe
from .clang_types import (
    Decayed, TK_ATOMIC, TK_ATTRIBUTED, TK_BOOL, TK_BTF_TAG, TK_COMPLEX, TK_CONSTANTARRAY,
    TK_ELABORATED, TK_ENUM, TK_FUNCTIONNOPROTO, TK_FUNCTIONPROTO, TK_INCOMPLETEARRAY,
    TK_INVALID, TK_POINTER, TK_RECORD, TK_TYPEDEF, TK_UNEXPOSED, TK_VARIABLEARRAY, TK_VECTOR,
    TK_VOID, atomic_value_type, element_type, is_builtin_kind, modified_type, param_types,
    strip_sugar, tkind)

TAG_RE = re.compile(r'\s*__attribute__\(\(btf_type_tag\("cpc_cps"\)\)\)\s*')


class Unnameable(Exception):
    pass


def _quals(t):
    q = []
    if t.is_const_qualified():
        q.append('const')
    if t.is_volatile_qualified():
        q.append('volatile')
    if t.is_restrict_qualified():
        q.append('restrict')
    return q


BOOL_RE = re.compile(r'\bbool\b')


def leaf_spelling(t):
    s = TAG_RE.sub(' ', t.spelling).strip()
    if tkind(t) == TK_BOOL:
        # `_Bool`, which every C mode reads: in C23 mode Clang spells it
        # `bool`, a keyword gcc 12 does not know
        s = BOOL_RE.sub('_Bool', s)
    s = re.sub(r'\s+', ' ', s)
    if '(unnamed' in s or '(anonymous' in s:
        raise Unnameable(s)
    if 'typeof' in s:
        return leaf_spelling(t.get_canonical())
    return s


def declare(t, name, strip_const=False, strip_volatile=False, keep_cps=False):
    """Declaration text of `name` of type `t` (name may be '' for an
    abstract declarator).  strip_const / strip_volatile drop the qualifier
    of the object itself (of its elements for an array), never of what a
    pointer points to.  keep_cps: for the passes that write CPC text
    (reparsed by the front-end), the cps tag stays, spelled `cps` where it
    binds (the result type of a cps function type, or a function type
    itself); the emitter's C drops it."""
    memo = _declared(t)
    if memo is None:
        return _decl(t, name, strip_const, strip_volatile, keep_cps).strip()
    key = (bytes(t), name, strip_const, strip_volatile, keep_cps)
    try:
        return memo[key]
    except KeyError:
        r = memo[key] = _decl(t, name, strip_const, strip_volatile, keep_cps).strip()
        return r


def _declared(t):
    """The declarations written of the types of t's parse, by the type's
    bytes (its kind and Clang's QualType: the same type, the same text) and
    declare()'s arguments, or None for a type that is not libclang's own.
    The same declarations are asked again and again (a frame's variables at
    each of its chunks, a temporary's type at each call), and each asks
    libclang for spellings and canonical types.  The memo lives on the
    translation unit's object, as long as the parse."""
    if type(t) is not _CLANG_TYPE:
        return None
    tu = t.__dict__.get('_tu')
    if tu is None:
        return None
    try:
        return tu.cpc_declared
    except AttributeError:
        m = tu.cpc_declared = {}
        return m


_CLANG_TYPE = fe.ci.Type


def declare_field(t, name, keep_cps=False):
    """A frame, environment or argument field holding a copy of a variable
    of type t: the object's own const and volatile dropped (the copy is
    written once and read once by generated code)."""
    return declare(t, name, strip_const=True, strip_volatile=True, keep_cps=keep_cps)


def _decl(t, inner, strip_const=False, strip_volatile=False, keep_cps=False):
    if isinstance(t, Decayed) and t.pointee is not t.written and \
            typedef_of(t.written) is not None:
        # a typedef'd array parameter (va_list, jmp_buf): its element type
        # may have no name in C (gcc's __va_list_tag); the pointer is named
        # through the typedef
        return '__typeof__(&(*(%s *)0)[0])%s' % (typedef_of(t.written).spelling,
                                                  ' ' + inner if inner else '')
    k = tkind(t)
    if k in (TK_BTF_TAG, TK_ATTRIBUTED):
        # the tag means cps on a function type's result (or below its
        # pointers) or on a function type itself; elsewhere (the type of a
        # call's value) it is the trace of one and is dropped
        if keep_cps and k == TK_BTF_TAG and 'cpc_cps' in t.spelling and (
                keep_cps == 'result' or tkind(strip_sugar(t)[0]) in (
                    TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO)):
            return _decl(modified_type(t), 'cps ' + inner if inner else 'cps',
                         strip_const, strip_volatile, keep_cps)
        return _decl(modified_type(t), inner, strip_const, strip_volatile, keep_cps)
    if k in (TK_ELABORATED, TK_UNEXPOSED) and 'typeof' in t.spelling:
        # typeof(T) written as a type: what it names, as a declarator (its
        # canonical spelling is not one for arrays and function pointers)
        c = t.get_canonical()
        if tkind(c) not in (TK_INVALID, TK_UNEXPOSED):
            return _decl(c, inner, strip_const, strip_volatile, keep_cps)
    if k == TK_ELABORATED or k == TK_TYPEDEF or k == TK_RECORD \
            or k == TK_ENUM or is_builtin_kind(k):
        if not is_builtin_kind(k):
            d = t.get_declaration()
            sp = d.semantic_parent if d is not None and d.kind != fe.K.NO_DECL_FOUND else None
            if sp is not None and sp.kind == fe.K.FUNCTION_DECL:
                return _local_type(t, d, sp, inner, strip_const, strip_volatile, keep_cps)
        s = leaf_spelling(t)
        if strip_const or strip_volatile:
            drop = [q for q, on in (('const', strip_const), ('volatile', strip_volatile)) if on]
            s2 = s
            for q in drop:
                s2 = re.sub(r'\b%s\b\s*' % q, '', s2).strip()
            if any(_canon_qual(t, q) for q in drop) and s2 == s:
                # the qualifier hides behind a typedef: spell the canonical type
                s2 = leaf_spelling(t.get_canonical())
                for q in drop:
                    s2 = re.sub(r'\b%s\b\s*' % q, '', s2).strip()
            s = s2
        return s + (' ' + inner if inner else '')
    if k == TK_COMPLEX:
        q = [x for x in _quals(t) if not (strip_const and x == 'const') and
             not (strip_volatile and x == 'volatile')]
        return ' '.join(q + [leaf_spelling(t.get_canonical().get_canonical())
                             .replace('const ', '').replace('volatile ', '')]) + \
            (' ' + inner if inner else '')
    if k == TK_ATOMIC:
        q = [x for x in _quals(t) if not (strip_const and x == 'const') and
             not (strip_volatile and x == 'volatile')]
        return ' '.join(q + ['_Atomic(%s)' % declare(atomic_value_type(t), '',
                                                     keep_cps=keep_cps)]) + \
            (' ' + inner if inner else '')
    if k == TK_POINTER:
        q = _quals(t)
        if strip_const:
            q = [x for x in q if x != 'const']
        if strip_volatile:
            q = [x for x in q if x != 'volatile']
        # qualifiers of the pointer itself
        star = '*' + (' '.join(q) + ' ' if q else '')
        pointee = t.get_pointee()
        pk = tkind(strip_sugar(pointee)[0]) if tkind(pointee) in (
            TK_BTF_TAG, TK_ATTRIBUTED) else tkind(pointee)
        if pk in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY,
                  TK_VARIABLEARRAY, TK_FUNCTIONPROTO,
                  TK_FUNCTIONNOPROTO):
            return _decl(pointee, '(' + star + inner + ')', keep_cps=keep_cps)
        return _decl(pointee, star + inner, keep_cps=keep_cps)
    if k == TK_CONSTANTARRAY:
        return _decl(element_type(t), '%s[%d]' % (inner, t.element_count),
                     strip_const, strip_volatile, keep_cps)
    if k == TK_INCOMPLETEARRAY:
        return _decl(element_type(t), '%s[]' % inner, strip_const, strip_volatile, keep_cps)
    if k == TK_VARIABLEARRAY:
        raise Unnameable('variable-length array')
    if k == TK_VECTOR:
        # a GNU vector (`vector_size`), named without its typedef (which may
        # be local to a function): the attribute on its element type
        q = [x for x in _quals(t) if not (strip_const and x == 'const') and
             not (strip_volatile and x == 'volatile')]
        return ' '.join(q + ['__typeof__(%s __attribute__((vector_size(%d))))' % (
            declare(element_type(t), '', keep_cps=keep_cps), t.get_size())]) + \
            (' ' + inner if inner else '')
    if k in (TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO):
        params = [declare(a, '', keep_cps=bool(keep_cps)) for a in param_types(t)] \
            if k == TK_FUNCTIONPROTO else []
        if k == TK_FUNCTIONPROTO and t.is_function_variadic():
            params.append('...')
        if not params and k == TK_FUNCTIONPROTO:
            params = ['void']
        res = t.get_result()
        return _decl(res, inner + '(' + ', '.join(params) + ')',
                     keep_cps='result' if keep_cps else False)
    # Other sugar (parens, typeof, ...): go canonical.
    c = t.get_canonical()
    if tkind(c) == k:
        raise Unnameable(t.spelling)
    return _decl(c, inner, strip_const, strip_volatile, keep_cps)


def _local_type(t, d, func, inner, strip_const, strip_volatile, keep_cps):
    """A type declared inside function `func` (declaration d), spelled at
    file scope by what it stands for: a typedef by its type (the function's
    records are at file scope after types.py), an enumeration by its
    integer type (C makes the two compatible)."""
    if d.kind == fe.K.TYPEDEF_DECL:
        under = d.underlying_typedef_type
        if inner.startswith('*') and tkind(_without_attributes(under)) in (
                TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_VARIABLEARRAY,
                TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO):
            # `F *p` with F a function or array type: `int (*p)(int)`
            inner = '(' + inner + ')'
        if all(not on or _canon_qual(under, q) for q, on in (
                ('const', t.is_const_qualified() and not strip_const),
                ('volatile', t.is_volatile_qualified() and not strip_volatile))):
            return _decl(under, inner, strip_const, strip_volatile, keep_cps)
        # a qualifier on the typedef's name: the canonical type carries it
        return _decl(t.get_canonical(), inner, strip_const, strip_volatile, keep_cps)
    if d.kind == fe.K.ENUM_DECL:
        q = [x for x in _quals(t) if not (strip_const and x == 'const') and
             not (strip_volatile and x == 'volatile')]
        return ' '.join(q + [leaf_spelling(d.enum_type)]) + (' ' + inner if inner else '')
    raise Unnameable('%s, declared inside `%s`' % (t.spelling, func.spelling))


def _without_attributes(t):
    """t without its attributes and btf tags (the cps tag included)."""
    while tkind(t) in (TK_BTF_TAG, TK_ATTRIBUTED):
        t = modified_type(t)
    return t


def typedef_of(t):
    """The typedef that t names (through attributes and elaboration), or None."""
    for _ in range(8):
        k = tkind(t)
        if k == TK_TYPEDEF:
            return t
        if k in (TK_BTF_TAG, TK_ATTRIBUTED):
            t = modified_type(t)
        elif k == TK_ELABORATED:
            t = t.get_named_type()
        else:
            return None
    return None


def _canon_qual(t, q):
    c = t.get_canonical()
    return c.is_const_qualified() if q == 'const' else c.is_volatile_qualified()


def is_const(t):
    """The object itself is const (through typedefs too)."""
    return t.get_canonical().is_const_qualified()


def has_const_member(t, depth=0):
    """A struct or union with a const member (at any depth, arrays included):
    such an object cannot be assigned as a whole; it is copied with memcpy."""
    if depth > 32:
        return False
    c = t.get_canonical()
    k = tkind(c)
    if k in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY):
        e = element_type(c)
        return e.get_canonical().is_const_qualified() or has_const_member(e, depth + 1)
    if k != TK_RECORD:
        return False
    for fld in c.get_fields():
        ft = fld.type
        if ft.get_canonical().is_const_qualified() or has_const_member(ft, depth + 1):
            return True
    return False


def copy(dst, src, t):
    """A statement copying lvalue src to lvalue dst, both of type t (up to
    qualifiers): an assignment, or memcpy when t cannot be assigned."""
    if has_const_member(t):
        return '__builtin_memcpy((void *)&(%s), (const void *)&(%s), sizeof (%s));' % (
            dst, src, dst)
    return '%s = %s;' % (dst, src)


# C11 6.3.1.1p2, 6.5.2.2p6: the integer types below int's rank, and float
_TO_INT = ('BOOL', 'CHAR_U', 'UCHAR', 'CHAR_S', 'SCHAR', 'SHORT', 'USHORT')


def promoted(t):
    """The type name an argument of type t has after the default argument
    promotions (`int` for char, short and _Bool and the enums based on
    them, `double` for float), or None when t is its own promotion."""
    u = strip_sugar(t)[0].get_canonical()
    kind = u.kind
    if kind == fe.ci.TypeKind.ENUM:
        kind = u.get_declaration().enum_type.get_canonical().kind
    if kind.name in _TO_INT:
        return 'int'
    if kind == fe.ci.TypeKind.FLOAT:
        return 'double'
    return None


def decay(t):
    """Type of an rvalue of type t (arrays and functions decay)."""
    u, _ = strip_sugar(t)
    k = tkind(u)
    if k in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_VARIABLEARRAY):
        return ('ptr', element_type(u))
    if k in (TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO):
        return ('ptr', t)
    return ('val', t)


def declare_rvalue(t, name, keep_cps=False):
    kind, tt = decay(t)
    if kind == 'ptr':
        return declare_ptr_to(tt, name, keep_cps)
    return declare(t, name, strip_const=True, keep_cps=keep_cps)


def declare_ptr_to(t, name, keep_cps=False):
    k = tkind(strip_sugar(t)[0])
    if k in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_FUNCTIONPROTO,
             TK_FUNCTIONNOPROTO):
        return _decl(t, '(*' + name + ')', keep_cps=keep_cps)
    return _decl(t, '*' + name, keep_cps=keep_cps)


def is_void(t):
    u, _ = strip_sugar(t)
    return tkind(u) == TK_VOID


def is_array(t):
    u, _ = strip_sugar(t)
    return tkind(u) in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY,
                           TK_VARIABLEARRAY)


def is_vla(t):
    """A variable-length array (or an array of them)."""
    return _has_variable_array(t, through_pointers=False)


def is_variably_modified(t):
    """A variable-length array, or a type derived from one: a pointer to
    it, an array of such pointers (C11 6.7.6p3)."""
    return _has_variable_array(t, through_pointers=True)


def _has_variable_array(t, through_pointers):
    u, _ = strip_sugar(t)
    k = tkind(u)
    if k == TK_VARIABLEARRAY:
        return True
    if k in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY):
        return _has_variable_array(element_type(u), through_pointers)
    if k == TK_POINTER and through_pointers:
        return _has_variable_array(u.get_pointee(), through_pointers)
    return False


def is_scalar(t):
    u, _ = strip_sugar(t)
    k = tkind(u)
    return is_builtin_kind(k) or k in (TK_POINTER, TK_ENUM)


def same_type(a, b):
    """Same C-mode type (canonical, ignoring the cps tag and qualifiers)."""
    def canon(t):
        return TAG_RE.sub(' ', strip_sugar(t)[0].get_canonical().spelling)\
            .replace('const ', '').replace('volatile ', '').strip()
    return canon(a) == canon(b)


def abi_pointer(ft):
    """The C type of the entry point of cps function type `ft`, as a pointer:
    `cpc_continuation *(*)(cpc_continuation *, P1, ..., Pn)`."""
    ft, _ = strip_sugar(ft)
    params = ['cpc_continuation *']
    if tkind(ft) == TK_FUNCTIONPROTO:
        params += [declare(a, '') for a in param_types(ft)]
        if ft.is_function_variadic():
            params.append('...')
    return 'cpc_continuation *(*)(%s)' % ', '.join(params)


def as_entry(ft, expr):
    """C expression calling-ready for a cps function pointer `expr` (of
    its declared, native-looking type): cast to its entry point type through
    `void (*)(void)`, which gcc's -Wcast-function-type accepts."""
    return '((%s)(void (*)(void))(%s))' % (abi_pointer(ft), expr)


def as_value(fdecl_type, entry):
    """A cps function's entry point `entry` (f__cps) as a value of the
    function's declared, native-looking pointer type."""
    return '((%s)(void (*)(void))%s)' % (declare_ptr_to(fdecl_type, ''), entry)
