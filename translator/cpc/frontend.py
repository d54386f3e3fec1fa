"""Front-end: Clang (libclang 18 via the PyPI bindings) set up for CPC.

Invariant: `parse(text, path, args)` returns a `Unit` whose AST is Clang's
view of CPC source `text` (the header read with -D__CPC_FRONTEND__); source
offsets index `text` exactly (the spelling `__attribute__((cps))` is replaced
by `cps` padded with spaces, so offsets do not move; cps_spelling.py, which
does the same for the headers the file includes).  Helpers here give what
the Python bindings lack (operator kinds, attributed types, spelling and
presumed locations, pretty printing) through ctypes.
"""
import ctypes
import os
import re

import clang.cindex as ci

from . import cps_spelling
from . import paths

TOP = paths.CHECKOUT
RUNTIME_INCLUDE = paths.INCLUDE_DIR
# headers that only the front-end reads, in front of the others: where Clang's own
# headers refuse what gcc's accept (frontend_include/stdatomic.h says how)
FRONTEND_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'frontend_include')

# --------------------------------------------------------------------------
# libclang setup

_lib = None


def _signatures():
    """name -> (argument types, result type) of the libclang functions
    called through `lib()`."""
    c, u, vp = ctypes.c_int, ctypes.c_uint, ctypes.c_void_p
    P = ctypes.POINTER
    return {
        'clang_getCursorBinaryOperatorKind': ([ci.Cursor], c),
        'clang_getCursorUnaryOperatorKind': ([ci.Cursor], c),
        'clang_Type_getModifiedType': ([ci.Type], ci.Type),
        'clang_Type_getValueType': ([ci.Type], ci.Type),
        'clang_getElementType': ([ci.Type], ci.Type),
        'clang_getSpellingLocation': ([ci.SourceLocation, P(vp), P(u), P(u), P(u)], None),
        'clang_getExpansionLocation': ([ci.SourceLocation, P(vp), P(u), P(u), P(u)], None),
        'clang_getFileName': ([vp], ci._CXString),
        'clang_getPresumedLocation': ([ci.SourceLocation, P(ci._CXString), P(u), P(u)], None),
        'clang_getCursorPrintingPolicy': ([ci.Cursor], vp),
        'clang_PrintingPolicy_setProperty': ([vp, c, u], None),
        'clang_PrintingPolicy_dispose': ([vp], None),
        'clang_getCursorPrettyPrinted': ([ci.Cursor, vp], ci._CXString),
        # (no errcheck: Cursor.referenced and semantic_parent below do it)
        'clang_getCursorReferenced': ([ci.Cursor], Cursor),
        'clang_getCursorSemanticParent': ([ci.Cursor], Cursor),
        'clang_getCursorType': ([ci.Cursor], ci.Type),
        # extents and locations made as this module's classes at once
        'clang_getCursorExtent': ([ci.Cursor], Range),
        'clang_getCursorLocation': ([ci.Cursor], Location),
        'clang_getRangeStart': ([ci.SourceRange], Location),
        'clang_getRangeEnd': ([ci.SourceRange], Location),
        'clang_Cursor_Evaluate': ([ci.Cursor], vp),
        'clang_EvalResult_getKind': ([vp], c),
        'clang_EvalResult_getAsLongLong': ([vp], ctypes.c_longlong),
        'clang_EvalResult_dispose': ([vp], None),
        'clang_getSkippedRanges': ([ci.TranslationUnit, ci.File], P(_RangeList)),
        'clang_disposeSourceRangeList': ([P(_RangeList)], None),
    }


def lib():
    """Our own handle on libclang for the functions the bindings lack or
    declare differently: declaring their signatures here leaves the
    bindings' handle (`ci.conf.lib`) as it is for other users."""
    global _lib
    if _lib is None:
        L = ctypes.CDLL(ci.conf.lib._name)
        for name, (args, result) in _signatures().items():
            fn = getattr(L, name)
            fn.argtypes = args
            fn.restype = result
        _lib = L
    return _lib


_EVAL_INT = 1                       # CXEval_Int


def integer_value(c):
    """The value of integer constant expression c, or None when Clang cannot
    evaluate it."""
    r = lib().clang_Cursor_Evaluate(c)
    if not r:
        return None
    try:
        if lib().clang_EvalResult_getKind(r) != _EVAL_INT:
            return None
        return lib().clang_EvalResult_getAsLongLong(r)
    finally:
        lib().clang_EvalResult_dispose(r)


class _RangeList(ctypes.Structure):
    _fields_ = [('count', ctypes.c_uint), ('ranges', ctypes.POINTER(ci.SourceRange))]


def skipped_ranges(u):
    """The byte ranges of u's main file that the front-end skipped (groups of
    conditional directives it did not take), each from the directive that
    starts the skipping to the one that ends it."""
    lst = lib().clang_getSkippedRanges(u.tu, u.tu.get_file(u.path))
    try:
        return [(lst.contents.ranges[i].start.offset, lst.contents.ranges[i].end.offset)
                for i in range(lst.contents.count)]
    finally:
        lib().clang_disposeSourceRangeList(lst)


# --------------------------------------------------------------------------
# Speed: the passes walk the same trees many times, and the bindings make a
# C call (and new Python objects) for every step.  The cursors of a parse are
# instances of `Cursor`, a subclass of the bindings' class that computes its
# children, its kind, its extent's ends and its location's offset once per
# object; children come from the cached lists, so each node is visited
# through one object per parse.  The bindings' own classes are left as they
# are, for any other user of them in the process (tools/cpc_check.py).

_CursorKinds = ci.CursorKind._kinds
_N_KINDS = len(_CursorKinds)
_CONTINUE = 1                       # CXChildVisit_Continue


class _Once:
    """A property computed once per cursor object (once_per_cursor): the
    value is stored in the object's __dict__ under the property's name,
    which (this being a non-data descriptor) later lookups find first, with
    no call."""

    def __init__(self, fn):
        self.fn = fn
        self.name = fn.__name__

    def __get__(self, obj, cls=None):
        # (called only while the object's __dict__ lacks the name)
        if obj is None:
            return self
        r = obj.__dict__[self.name] = self.fn(obj)
        return r


class Location(ci.SourceLocation):
    """A source location whose expansion offset is computed once."""

    @_Once
    def offset(self):
        d = self._data
        if d is not None:
            return d[3]
        off = ctypes.c_uint()
        ci.conf.lib.clang_getInstantiationLocation(self, None, None, None,
                                                   ctypes.byref(off))
        return off.value


class Range(ci.SourceRange):
    """A source range whose ends are computed once."""

    @_Once
    def start(self):
        return lib().clang_getRangeStart(self)

    @_Once
    def end(self):
        return lib().clang_getRangeEnd(self)


def _visit_child(child, parent, out):
    # one callback object for every enumeration of children (making a ctypes
    # callback per node cost as much as the enumeration itself); `out` is
    # the list being filled, passed as the client data.  Every node's kind
    # is read: it is stored here (see Cursor.kind).
    child.__class__ = Cursor
    i = child._kind_id
    k = _CursorKinds[i] if i < _N_KINDS else None
    if k is not None:
        child.__dict__['kind'] = k
    out.append(child)
    return _CONTINUE


_visit_child_cb = ci.callbacks['cursor_visit'](_visit_child)

_RECURSE = 2                        # CXChildVisit_Recurse
_BREAK = 0                          # CXChildVisit_Break


class Subtree:
    """The subtree of a cursor as one visit of libclang listed it: `nodes`
    in preorder (the root first), the `parents` of each (None for the
    root) and the `ends` of their subtrees (node i's subtree is
    nodes[i:ends[i]]); `memo` holds what the analyses derive from it.
    Each node's `place` is (the Subtree, its index)."""
    __slots__ = ('nodes', 'parents', 'ends', 'memo')

    def __init__(self, root):
        self.nodes = [root]
        self.parents = [None]
        self.ends = [0]
        self.memo = {}


def _visit_subtree(child, parent, state):
    # the callback of `_children`: libclang visits the subtree in preorder
    # and passes each node's parent, the cursor it passed before (the same
    # bytes; the root's own, which may differ, is taken from its first
    # child); `state` is [stack of (parent's bytes, its children list, its
    # cursor, its index), translation unit, Subtree, its nodes, its
    # parents, its ends, whether the listing was given up].  The stack is
    # cut back to the node's parent (the subtrees left end here), the node
    # joins its parent's list and the preorder and, unless it is a leaf, is
    # entered with a list of its own.
    stack = state[0]
    key = bytes(parent)
    top = stack[-1]
    nodes = state[3]
    j = len(nodes)
    if top[0] != key:
        ends = state[5]
        while top[0] != key:
            if len(stack) == 1:
                if top[0] is None:
                    # the root's first child: libclang passes the root as it
                    # makes it again (a statement without its declaration)
                    top = stack[0] = (key, top[1], top[2], 0)
                    break
                state[6] = True     # a parent not met before: given up
                return _BREAK
            stack.pop()
            ends[top[3]] = j
            top = stack[-1]
    if top[2]._kind_id == _UNARY_EXPR_KIND and \
            any(bytes(x) == bytes(child) for x in top[1]):
        # libclang lists the bound of `sizeof(int[n])` twice: once only here
        return _CONTINUE
    child.__class__ = Cursor
    i = child._kind_id
    d = child.__dict__
    if i < _N_KINDS:
        k = _CursorKinds[i]
        if k is not None:
            d['kind'] = k
    d['_tu'] = state[1]
    top[1].append(child)
    nodes.append(child)
    state[4].append(top[2])
    d['place'] = (state[2], j)
    if i in _LEAF_KINDS:
        state[5].append(j + 1)      # (its empty list made if asked: seldom)
        return _CONTINUE
    out = d['children'] = []
    state[5].append(0)
    stack.append((bytes(child), out, child, j))
    return _RECURSE


_visit_subtree_cb = ci.callbacks['cursor_visit'](_visit_subtree)

# Kinds that never have children in C, not asked (a third of the nodes of a
# function): literals are leaves of Clang's AST, and libclang visits under
# a reference to a declaration only its C++ qualifier and template arguments.
_LEAF_KINDS = frozenset(k.value for k in (
    ci.CursorKind.DECL_REF_EXPR, ci.CursorKind.INTEGER_LITERAL,
    ci.CursorKind.FLOATING_LITERAL, ci.CursorKind.CHARACTER_LITERAL,
    ci.CursorKind.STRING_LITERAL))

_TU_KIND = ci.CursorKind.TRANSLATION_UNIT.value
_UNARY_EXPR_KIND = ci.CursorKind.CXX_UNARY_EXPR.value


def _one_level(c):
    """c's children as libclang lists them, one level, in a new list."""
    out = []
    ci.conf.lib.clang_visitChildren(c, _visit_child_cb, out)
    tu = c._tu
    for x in out:
        x._tu = tu
    return out


def _children(c):
    """The children of cursor c, stored in its __dict__ as `children`.
    Below a declaration or statement, the passes walk the whole subtree:
    one visit of libclang lists the children of every node in it (one
    call into libclang instead of one per node), and its preorder (see
    `Subtree`, `place`).  The translation unit's
    children (every declaration of every header) are listed one level."""
    out = []
    i = c._kind_id
    if i in _LEAF_KINDS:
        pass
    elif i == _TU_KIND:
        out = _one_level(c)
    else:
        sub = Subtree(c)
        stack = [(None, out, c, 0)]
        state = [stack, c._tu, sub, sub.nodes, sub.parents, sub.ends, False]
        ci.conf.lib.clang_visitChildren(c, _visit_subtree_cb, state)
        if not state[6]:
            n = len(sub.nodes)
            for x in stack:
                sub.ends[x[3]] = n
            c.__dict__['place'] = (sub, 0)
            _subtrees(c._tu).append(sub)
        else:
            # a parent that the visit did not pass before (never seen): c's
            # children listed one level, each listing its own in turn
            out = _one_level(c)
    c.__dict__['children'] = out
    return out


def _subtrees(tu):
    """The Subtrees listed in translation unit tu (for Unit.release)."""
    try:
        return tu.cpc_subtrees
    except AttributeError:
        r = tu.cpc_subtrees = []
        return r


def place(c):
    """(Subtree, index) of cursor c in the subtree listed with its
    children, or None for a cursor listed alone (the translation unit, a
    leaf asked first)."""
    d = c.__dict__
    try:
        return d['place']
    except KeyError:
        pass
    kids(c)
    return d.get('place')


class _Children:
    """Cursor.children: computed by `_children` once per cursor object (a
    non-data descriptor, like `_Once`: later lookups find the list in the
    object's __dict__ with no call)."""

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return _children(obj)


class Cursor(ci.Cursor):
    """A cursor of one parse.  `children` is the cached list of its
    children (do not modify it); `memo` holds facts the analyses compute
    once per node (analysis.py names them).  Its kind, extent and location
    are computed once per object too (a parse never changes)."""

    children = _Children()

    def get_children(self):
        # the bindings' interface, for a look at a declaration's attributes
        # (analysis.has_annotation): a cursor not listed yet is listed one
        # level, not kept (it may be a whole function's definition)
        try:
            return iter(self.__dict__['children'])
        except KeyError:
            return iter(_one_level(self))

    @_Once
    def memo(self):
        return {}

    @_Once
    def kind(self):
        i = self._kind_id
        k = _CursorKinds[i] if i < len(_CursorKinds) else None
        return k if k is not None else ci.CursorKind.from_id(i)

    @_Once
    def extent(self):
        return lib().clang_getCursorExtent(self)

    @_Once
    def spelling(self):
        return ci.conf.lib.clang_getCursorSpelling(self)

    @_Once
    def location(self):
        return lib().clang_getCursorLocation(self)

    # The bindings' versions of these two compare the result with a null
    # cursor they fetch from libclang, two more calls each time.
    @_Once
    def referenced(self):
        return _cursor_result(lib().clang_getCursorReferenced(self), self)

    @_Once
    def semantic_parent(self):
        return _cursor_result(lib().clang_getCursorSemanticParent(self), self)

    @_Once
    def type(self):
        # what the bindings' errcheck (Type.from_result) does, without its
        # search of the arguments for the translation unit
        t = lib().clang_getCursorType(self)
        t._tu = self._tu
        return t


_NULL_KIND = ci.CursorKind.INVALID_FILE.value       # clang_getNullCursor()'s kind


def _cursor_result(r, of):
    """r, a cursor libclang returned about cursor `of`, or None for the null
    cursor (what clang_equalCursors(r, clang_getNullCursor()) tells)."""
    if r._kind_id == _NULL_KIND:
        d = r.data
        if d[0] is None and d[1] is None and d[2] is None:
            return None
    r._tu = of._tu
    return r


def adopt(c):
    """c as a `Cursor` (cursors that the bindings return, such as
    `referenced` or `semantic_parent`, are the bindings' own class)."""
    if c is not None and c.__class__ is not Cursor:
        c.__class__ = Cursor
    return c


def resource_dir():
    """Clang's resource headers: Debian's libclang-common-19-dev (pinned)."""
    env = os.environ.get('CPC_CLANG_RESOURCE_DIR')
    if env:
        return env
    for v in ('19', '18'):
        d = '/usr/lib/llvm-%s/lib/clang/%s' % (v, v)
        if os.path.isfile(os.path.join(d, 'include', 'stddef.h')):
            return d
    return None


# Binary operator kinds (CXBinaryOperatorKind, libclang >= 17)
BO = dict(Mul=3, Div=4, Rem=5, Add=6, Sub=7, Shl=8, Shr=9, LT=11, GT=12,
          LE=13, GE=14, EQ=15, NE=16, And=17, Xor=18, Or=19, LAnd=20,
          LOr=21, Assign=22, MulAssign=23, DivAssign=24, RemAssign=25,
          AddAssign=26, SubAssign=27, ShlAssign=28, ShrAssign=29,
          AndAssign=30, XorAssign=31, OrAssign=32, Comma=33)
UO = dict(PostInc=1, PostDec=2, PreInc=3, PreDec=4, AddrOf=5, Deref=6,
          Plus=7, Minus=8, Not=9, LNot=10, Real=11, Imag=12, Extension=13)
ASSIGN_OPS = set(range(BO['Assign'], BO['OrAssign'] + 1))
INC_DEC_OPS = (UO['PostInc'], UO['PostDec'], UO['PreInc'], UO['PreDec'])

K = ci.CursorKind

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


def once_per_cursor(c, key, compute):
    """compute(c), computed once per cursor object and kept in it under
    `key` (a parse never changes; the passes ask the same nodes often).
    `_Once` is the same for a property."""
    d = c.__dict__
    try:
        return d[key]
    except KeyError:
        r = d[key] = compute(c)
        return r


def binop(c):
    return once_per_cursor(c, 'binop', lib().clang_getCursorBinaryOperatorKind)


def unop(c):
    return once_per_cursor(c, 'unop', lib().clang_getCursorUnaryOperatorKind)


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


def strip_sugar(t):
    """Remove attributes, typedefs, elaboration, parens; keep the btf tag
    visible: returns (type, tagged)."""
    tagged = False
    for _ in range(64):
        k = tkind(t)
        if k == TK_BTF_TAG:
            if 'cpc_cps' in t.spelling:
                tagged = True
            t = modified_type(t)
        elif k == TK_ATTRIBUTED:
            t = modified_type(t)
        elif k == TK_TYPEDEF:
            t = t.get_declaration().underlying_typedef_type
        elif k == TK_ELABORATED:
            t = t.get_named_type()
        elif k == TK_UNEXPOSED:
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
        self.pointee = t.element_type if k in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY,
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

    def is_const_qualified(self):
        return False

    def is_volatile_qualified(self):
        return False

    def is_restrict_qualified(self):
        return False

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


def function_type_of(t):
    """The function type that a callee of type `t` designates (through
    pointers and sugar), or None."""
    for _ in range(8):
        t, _tag = strip_sugar(t)
        k = tkind(t)
        if k in (TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO):
            return t
        if k == TK_POINTER:
            t = t.get_pointee()
            continue
        return None
    return None


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
        k = tkind(r)
        if k == TK_BTF_TAG:
            if 'cpc_cps' in r.spelling:
                return True
            r = modified_type(r)
        elif k == TK_ATTRIBUTED:
            r = modified_type(r)
        elif k == TK_TYPEDEF:
            r = r.get_declaration().underlying_typedef_type
        elif k == TK_ELABORATED:
            r = r.get_named_type()
        elif k == TK_POINTER:
            r = r.get_pointee()
        elif k in (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY):
            r = element_type(r)
        else:
            return False
    return False


def is_cps_type(t):
    """t designates a cps function (through pointers and sugar): its
    function type is cps, or carries the tag itself (`cps ft *p`)."""
    for _ in range(8):
        t, tagged = strip_sugar(t)
        k = tkind(t)
        if k in (TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO):
            return tagged or is_cps_function_type(t)
        if k == TK_POINTER:
            t = t.get_pointee()
            continue
        return False
    return False


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


def spelling_offset(loc):
    f = ctypes.c_void_p()
    off = ctypes.c_uint()
    lib().clang_getSpellingLocation(loc, ctypes.byref(f), None, None, ctypes.byref(off))
    return f.value, off.value


def presumed(loc):
    L = lib()
    s = ci._CXString()
    line, col = ctypes.c_uint(), ctypes.c_uint()
    L.clang_getPresumedLocation(loc, ctypes.byref(s), ctypes.byref(line),
                                ctypes.byref(col))
    return ci._CXString.from_result(s), line.value, col.value


# CXPrintingPolicy_Bool: off, the boolean type is spelt `_Bool`, which every C
# mode reads (in C23 mode Clang writes `bool`, which gcc 12 does not know)
POLICY_BOOL = 12


def pretty(c):
    """Macro-expanded, valid C text of a declaration, statement or
    expression cursor."""
    L = lib()
    pol = L.clang_getCursorPrintingPolicy(c)
    try:
        L.clang_PrintingPolicy_setProperty(pol, POLICY_BOOL, 0)
        s = L.clang_getCursorPrettyPrinted(c, pol)
        return ci._CXString.from_result(s)
    finally:
        L.clang_PrintingPolicy_dispose(pol)


# --------------------------------------------------------------------------
# Parsing

# A line marker with flags (`# 200 "xyz" 2 3`: 1 enters a file, 2 returns to
# one, 3 and 4 a system header), as preprocessors write them.  gcc keeps a stack
# of the files entered (flag 1) and ignores, with a warning, a return (flag 2)
# to a file that is not the one it entered from; Clang refuses such a marker
# ("cannot pop empty include stack").  The front-end reads the markers as gcc
# does: without their flags (blanked), and an ignored one not at all (blanked
# whole), so that lines and file names, `__LINE__` in a rendering included, are
# gcc's.  Offsets are kept; the program's text keeps the markers for the C
# compiler.
LINE_MARKER_RE = re.compile(rb'^[ \t]*#[ \t]*(line[ \t]+)?\d+[ \t]+"((?:[^"\\\n]|\\.)*)"'
                            rb'((?:[ \t]+\d+)*)[ \t]*$', re.M)


def line_markers_as_gcc_reads_them(text, path):
    """`text` (of file `path`) with the flags of its line markers blanked,
    and the markers gcc ignores blanked whole (same length)."""
    if b'"' not in text or b'#' not in text:
        return text
    out, last = [], 0
    current, entered = path.encode('utf-8', 'surrogateescape'), []
    for m in LINE_MARKER_RE.finditer(text):
        name, flags = m.group(2), m.group(3).split()
        if m.group(1) or not flags:
            current = name
            continue
        if b'2' in flags and not (entered and entered[-1] == name):
            keep = m.start()                   # ignored by gcc
        else:
            if b'1' in flags:
                entered.append(current)
            elif b'2' in flags:
                entered.pop()
            current = name
            keep = m.start(3)
        out += [text[last:keep], re.sub(rb'[^\n]', b' ', text[keep:m.end()])]
        last = m.end()
    if not out:
        return text
    out.append(text[last:])
    return b''.join(out)


class Diag(Exception):
    """A user-facing diagnostic: file:line:col: error: message."""

    def __init__(self, msg, file=None, line=0, col=0, notes=(), from_clang=False):
        super().__init__(msg)
        self.msg = msg
        self.from_clang = from_clang      # Clang's own error (clang_limits.py)
        self.file = file
        self.line = line
        self.col = col
        self.notes = list(notes)

    def format(self):
        where = ''
        if self.file:
            where = '%s:%d:%d: ' % (self.file, self.line, self.col)
        out = where + 'error: ' + self.msg
        for n in self.notes:
            out += '\n' + n
        return out


class Diags(Exception):
    def __init__(self, diags):
        super().__init__('; '.join(d.msg for d in diags))
        self.diags = diags


PARSE_INCLUDE_ATTRIBUTED_TYPES = 0x1000   # CXTranslationUnit_IncludeAttributedTypes

# `_Float128` (ISO/IEC TS 18661-3, which gcc knows) is `__float128` to this
# Clang, which has no keyword for it (and glibc's headers give it none).
# Clang stops at 256 nested brackets (parentheses, braces, square brackets),
# gcc at none: the limit is raised beyond what the passes' walks can hold
# (depth.py), which reports a program deeper still.
FRONTEND_FLAGS = [
    '-x', 'c', '-std=gnu11', '-D__CPC_FRONTEND__', '-D_Float128=__float128',
    '-Wno-error=int-conversion', '-Wno-error=implicit-function-declaration',
    '-Wno-error=incompatible-pointer-types', '-Wno-error=return-type',
    '-Wno-error=implicit-int', '-Wno-dangling-else',
    '-ferror-limit=50', '-fbracket-depth=100000',
]


class Unit:
    def __init__(self, tu, text, path):
        self.tu = tu
        self.text = text          # bytes
        self.path = path
        self._line_starts = None
        self._macros = None
        self._main_file = None
        self._top = None
        self._defs = None
        self._files = {}          # libclang's file handle -> its bytes (spelled)

    def release(self):
        """Drop what this parse's cursors hold (children, preorders, the
        analyses' memos): the unit is done with.  Those facts and the
        cursors refer to each other (a cursor's memo holds the Func that
        holds the cursor, a node's place holds the preorder that holds the
        node), so without this only the garbage collector would free them,
        going through each of them again; emptied, they go as soon as the
        last reference does.  Nothing of the unit may be used afterwards."""
        subs = _subtrees(self.tu)
        self.tu.cpc_subtrees = []
        for sub in subs:
            for n in sub.nodes:
                n.__dict__.clear()
            sub.nodes = sub.parents = sub.ends = None
            sub.memo = None
        self._top = self._defs = None

    def top(self):
        """The translation unit's top-level cursors (one list per parse)."""
        if self._top is None:
            self._top = list(adopt(self.tu.cursor).children)
        return self._top

    def function_defs(self):
        """The function definitions written in the main file, in order."""
        if self._defs is None:
            self._defs = [c for c in self.top()
                          if c.kind == K.FUNCTION_DECL and c.is_definition() and
                          self.in_main_file(c)]
        return self._defs

    def loc_of(self, cursor):
        """(file, line, col) presumed location of a cursor (its expansion
        point for macros; its location when it has no extent, as an
        implicit declaration)."""
        start = cursor.extent.start if cursor.extent else None
        f, line, col = presumed(start if start is not None and start.file is not None
                                else cursor.location)
        return f or self.path, line, col

    def diag(self, cursor, msg, notes=()):
        f, line, col = self.loc_of(cursor)
        return Diag(msg, f, line, col, notes)

    def src(self, cursor):
        e = cursor.extent
        return self.text[e.start.offset:e.end.offset].decode('utf-8', 'surrogateescape')

    def in_main_file(self, cursor):
        return once_per_cursor(cursor, 'in_main_file', self._in_main_file)

    def _in_main_file(self, cursor):
        # the file of the expansion location, compared as libclang's handle
        # (no Python object per cursor: the passes ask it of every
        # declaration of every header)
        main = self.main_file()
        if main is None:
            loc = cursor.location
            return loc.file is not None and loc.file.name == self.path
        f = ctypes.c_void_p()
        lib().clang_getExpansionLocation(cursor.location, ctypes.byref(f), None, None, None)
        return f.value == main

    def spelled(self, cursor):
        """The bytes that spell `cursor` in the file where it is written
        (the main file's text, or a header read once per unit), or None
        when they cannot be told (a macro expansion, a file not on disk)."""
        e = cursor.extent
        fa, a = spelling_offset(e.start)
        fb, b = spelling_offset(e.end)
        if fa is None or fa != fb or b < a:
            return None
        if fa == self.main_file():
            return self.text[a:b]
        files = self._files
        if fa not in files:
            name = ci._CXString.from_result(lib().clang_getFileName(fa))
            try:
                with open(name, 'rb') as fh:
                    files[fa] = fh.read()
            except OSError:
                files[fa] = None
        text = files[fa]
        return None if text is None or b > len(text) else text[a:b]

    def main_file(self):
        """libclang's handle of the main file (to compare spelling locations)."""
        if self._main_file is None:
            self._main_file = spelling_offset(self.tu.get_location(self.path, 0))[0]
        return self._main_file

    def written(self, cursor):
        """(a, b): the bytes of the main file that spell `cursor`, where a
        rewrite of it goes; None when it is not written as such in the file
        (it comes from a macro's body, token pasting, or another file).  A
        cursor inside a macro argument is written in the argument: the
        expansion location (Clang's extent) would put the rewrite in front
        of the macro's name."""
        e = cursor.extent
        a, b = e.start.offset, e.end.offset
        fa, sa = spelling_offset(e.start)
        fb, sb = spelling_offset(e.end)
        main = self.main_file()
        if fa != main or fb != main:
            return None
        if sb <= sa:
            return None
        if (sa, sb) != (a, b):
            # inside a macro argument: the range must lie in the invocation
            inside = False
            for (s, t) in self.macro_ranges():
                if s > sa:
                    break
                if s <= sa and sb <= t:
                    inside = True
                    break
            if not inside:
                return None
        if cursor.kind == K.DECL_REF_EXPR and \
                self.text[sa:sb] != cursor.spelling.encode('utf-8', 'surrogateescape'):
            return None
        return sa, sb

    def macro_ranges(self):
        if self._macros is None:
            rs = []
            names = []
            defs = {}
            for c in self.top():
                if c.kind == K.MACRO_INSTANTIATION and c.location.file is not None \
                        and c.location.file.name == self.path:
                    e = c.extent
                    rs.append((e.start.offset, e.end.offset))
                    names.append((e.start.offset, e.end.offset, c.spelling))
                elif c.kind == K.MACRO_DEFINITION:
                    defs[c.spelling] = c
            rs.sort()
            names.sort()
            self._macros = rs
            self._macro_names = names
            self._macro_defs = defs
            self._stringifies = {}
        return self._macros

    def macro_names(self):
        """The names of every macro the unit defines (builtin, on the command
        line, in a header or in the file)."""
        self.macro_ranges()
        return self._macro_defs.keys()

    def stringifying_macro_in(self, a, b):
        """True if a macro invoked in the file range [a, b), or any macro its
        definition names, stringifies or pastes (`#`, `##`): rewriting the
        text of an argument there would change a string."""
        self.macro_ranges()
        for (s, t, name) in self._macro_names:
            if s >= b:
                break
            if s >= a and self._macro_stringifies(name, set()):
                return True
        return False

    def spells_cps_in(self, a, b):
        """True if a macro invoked in the file range [a, b) expands to the
        `cps` keyword (directly or through the macros it names: `#define
        CPS cps`)."""
        self.macro_ranges()
        for (s, t, name) in self._macro_names:
            if s >= b:
                break
            if s >= a and self._macro_names_cps(name, set()):
                return True
        return False

    def _macro_names_cps(self, name, seen):
        d = self._macro_defs.get(name)
        if d is None or name in seen:
            return False
        seen.add(name)
        for tk in list(d.get_tokens())[1:]:
            sp = tk.spelling
            if sp in ('cps', 'cpc_cps', '"cpc_cps"'):
                return True
            if tk.kind == ci.TokenKind.IDENTIFIER and sp in self._macro_defs and \
                    self._macro_names_cps(sp, seen):
                return True
        return False

    def _macro_stringifies(self, name, seen):
        r = self._stringifies.get(name)
        if r is not None:
            return r
        d = self._macro_defs.get(name)
        if d is None or name in seen:
            return False
        seen.add(name)
        r = False
        toks = list(d.get_tokens())
        for tk in toks[1:]:
            sp = tk.spelling
            if sp in ('#', '##', '%:', '%:%:'):
                r = True
                break
            if tk.kind == ci.TokenKind.IDENTIFIER and sp != name and \
                    sp in self._macro_defs and self._macro_stringifies(sp, seen):
                r = True
                break
        self._stringifies[name] = r
        return r

    def in_macro(self, cursor):
        """The macro invocation range that produced `cursor` (whose extent
        lies within it), or None: its text is then not its own."""
        e = cursor.extent
        a, b = e.start.offset, e.end.offset
        best = None
        for (s, t) in self.macro_ranges():
            if s > a:
                break
            if s <= a and b <= t:
                if best is None or t - s > best[1] - best[0]:
                    best = (s, t)
        return best


_index = None


def parse(text, path, args=(), check=True):
    """Parse CPC `text` (bytes or str) as file `path`."""
    global _index
    lib()
    if isinstance(text, str):
        text = text.encode('utf-8', 'surrogateescape')
    text = cps_spelling.mask(text)
    if _index is None:
        _index = ci.Index.create()
    flags = list(FRONTEND_FLAGS)
    rd = resource_dir()
    if rd:
        flags += ['-resource-dir', rd]
    flags += ['-I' + FRONTEND_INCLUDE, '-I' + RUNTIME_INCLUDE]
    flags += list(args)
    # always reported, whatever the user's flags: typecheck tells an
    # implicit-int declaration (`cps *p;`) from `cps` on an object by it
    flags += ['-Wimplicit-int', '-Wno-error=implicit-int']
    opts = (ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD |
            PARSE_INCLUDE_ATTRIBUTED_TYPES)
    try:
        unsaved = [(path, line_markers_as_gcc_reads_them(text, path))] + \
            cps_spelling.unsaved_headers(text, path, args)
        tu = _index.parse(path, args=flags, unsaved_files=unsaved,
                          options=opts)
    except ci.TranslationUnitLoadError as e:
        raise Diags([Diag('cannot parse %s: %s' % (path, e))])
    u = Unit(tu, text, path)
    if check:
        errs = []
        for d in tu.diagnostics:
            if d.severity >= ci.Diagnostic.Error:
                loc = d.location
                fname = loc.file.name if loc.file else path
                pf, pl, pc = presumed(loc) if loc.file else (fname, 0, 0)
                errs.append(Diag(d.spelling, pf or fname, pl, pc, from_clang=True))
        if errs:
            raise Diags(errs)
    return u


def implicit_int_offsets(u):
    """Offsets in the main file of the declarators that Clang reports as
    declared with implicit int (`-Wimplicit-int` points at the declarator's
    name); a header's are not: their offsets are another file's."""
    return {d.location.offset for d in u.tu.diagnostics
            if d.option == '-Wimplicit-int' and d.location.file is not None and
            d.location.file.name == u.path}


def children(c):
    return list(adopt(c).children)


def kids(c):
    """c's children: the cached list itself (do not modify it)."""
    try:
        return c.__dict__['children']
    except KeyError:
        return adopt(c).children
