"""Clang's cursors as the passes read them: one object per node and parse,
children listed once (`kids`), a subtree's preorder kept for the walks
(`Subtree`, `place`), facts computed once per cursor (`once_per_cursor`), and
the operator kinds of unary and binary operators (`binop`, `unop`).
"""
import ctypes
from array import array
from itertools import islice, repeat

import clang.cindex as ci

from . import native
from .libclang import lib


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
_KIND_OF = {i: k for i, k in enumerate(_CursorKinds) if k is not None}
_CONTINUE = 1                       # CXChildVisit_Continue


def _once_per_kind(name):
    """CursorKind's test `name` (is_expression, ...), asked of libclang once
    per kind, then read from the kind: the bindings make a C call each time,
    and the passes ask it of most nodes they meet (a few hundred thousand
    times in a 10,000-line function).  The kinds' tests never change: the
    bindings' other users get the same answers."""
    test = getattr(ci.CursorKind, name)
    key = '_cpc_' + name

    def once(self):
        d = self.__dict__
        try:
            return d[key]
        except KeyError:
            r = d[key] = test(self)
            return r
    once.__doc__ = test.__doc__
    return once


for _test in ('is_declaration', 'is_reference', 'is_expression', 'is_statement',
              'is_attribute', 'is_invalid', 'is_translation_unit', 'is_preprocessing',
              'is_unexposed'):
    setattr(ci.CursorKind, _test, _once_per_kind(_test))


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
    """A source range whose ends are computed once (read from the C
    helper's facts for a cursor's extent it listed: `_facts`, the facts
    and the node's index)."""

    @_Once
    def start(self):
        at = self.__dict__.get('_facts')
        if at is not None:
            return at[0].location(3 * at[1])
        return lib().clang_getRangeStart(self)

    @_Once
    def end(self):
        at = self.__dict__.get('_facts')
        if at is not None:
            return at[0].location(3 * at[1] + 1)
        return lib().clang_getRangeEnd(self)


_range_from = Range.from_buffer_copy
_location_from = Location.from_buffer_copy


def _facts_at(c):
    """(the C helper's _Facts, c's index) for a cursor it listed, but the
    root of its listing, or None."""
    p = c.__dict__.get('place')
    if p is not None and p[1]:
        f = p[0].facts
        if f is not None:
            return f, p[1]
    return None


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
    __slots__ = ('nodes', 'parents', 'ends', 'memo', 'facts')

    def __init__(self, root):
        self.nodes = [root]
        self.parents = [None]
        self.ends = [0]
        self.memo = {}
        # (listed by the C helper) the nodes' extents and locations: see
        # `_Facts`
        self.facts = None


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
    fn = _lister()
    if fn is not None:
        listed = _native_listing(fn, c, 1)
        if listed is not None:
            nodes, kinds, _parents, _ends = listed
            tu = c._tu
            for j in range(1, len(nodes)):
                x = nodes[j]
                d = x.__dict__
                i = kinds[j]
                if i < _N_KINDS:
                    k = _CursorKinds[i]
                    if k is not None:
                        d['kind'] = k
                d['_tu'] = tu
            del nodes[0]
            return nodes
    out = []
    ci.conf.lib.clang_visitChildren(c, _visit_child_cb, out)
    tu = c._tu
    for x in out:
        x._tu = tu
    return out


# The C helper (native.py), when built: it lists a subtree in one call and
# gives its nodes' cursors, kinds, parents and subtree ends as flat arrays,
# where the visit through the bindings (`_visit_subtree`, the fallback)
# costs a Python callback per node.  Both follow the same rules.

_CURSOR_BYTES = ctypes.sizeof(ci.Cursor)
_RANGE_BYTES = ctypes.sizeof(ci.SourceRange)
_LOCATION_BYTES = ctypes.sizeof(ci.SourceLocation)
_UINT_BYTES = ctypes.sizeof(ctypes.c_uint)


def _lister():
    return native.load(sorted(_LEAF_KINDS), _UNARY_EXPR_KIND)


_ARRAY_TYPES = {}


def _array_type(n):
    """An array type of Cursors for n of them: its length the power of two
    at or above n, kept (ctypes makes a new type, a costly object freed by
    the collector, for each length it is asked)."""
    cap = 1 << (n - 1).bit_length()
    t = _ARRAY_TYPES.get(cap)
    if t is None:
        t = _ARRAY_TYPES[cap] = Cursor * cap
    return t


class _Facts:
    """What the C helper read of each node of a subtree besides its cursor
    (node j's, the root's excepted): its extent (`extents`, CXSourceRange
    structs), the extent's start and end and its location (`locations`,
    three CXSourceLocation structs a node) and these three locations'
    expansion offsets (`offsets`, the same order), and the declaration each
    reference designates (`referenced`, a CXCursor a node, meaningful for
    a DECL_REF_EXPR's).  `Cursor.extent`, `Cursor.location` and a
    reference's `Cursor.referenced` make their objects from these bytes,
    their offsets already known, with no call into libclang."""
    __slots__ = ('extents', 'locations', 'offsets', 'referenced')

    def __init__(self, L, n):
        self.extents = ctypes.string_at(L.extents, n * _RANGE_BYTES)
        self.locations = ctypes.string_at(L.locations, 3 * n * _LOCATION_BYTES)
        self.offsets = array('I', ctypes.string_at(L.offsets, 3 * n * _UINT_BYTES))
        self.referenced = ctypes.string_at(L.referenced, n * _CURSOR_BYTES)

    def location(self, k):
        """The k-th location (node j's start, end, location: 3j, 3j+1, 3j+2)."""
        loc = _location_from(self.locations, k * _LOCATION_BYTES)
        loc.__dict__['offset'] = self.offsets[k]
        return loc


def _native_listing(fn, c, children_only, sub=None):
    """(cursors, kinds, parent indexes, subtree ends) of c's subtree in
    preorder as the helper lists it (c first, as itself), or None when it
    gave the listing up.  With a Subtree `sub`, its nodes' facts too."""
    L = fn(c, children_only, sub is not None).contents
    n = L.n
    if n < 0:
        return None
    if sub is not None:
        sub.facts = _Facts(L, n)
    arr = _array_type(n)()
    ctypes.memmove(arr, L.cursors, n * _CURSOR_BYTES)
    nodes = arr[:n]     # (each a Cursor on arr's memory, which it keeps)
    nodes[0] = c
    return nodes, L.kinds[:n], L.parents[:n], L.ends[:n]


def _subtree_native(fn, c, out):
    """`_children`'s listing of c's subtree by the helper: c's children in
    `out`, every node's own list, kind, translation unit and place; the
    Subtree, or None when the helper gave it up."""
    sub = Subtree(c)
    listed = _native_listing(fn, c, 0, sub)
    if listed is None:
        return None
    nodes, kinds, parents, ends = listed
    n = len(nodes)
    sub.nodes = nodes
    sub.ends = ends
    sub.parents = list(map(nodes.__getitem__, parents))
    sub.parents[0] = None
    tu = c._tu
    lists = [None] * n
    lists[0] = out
    leaves = _LEAF_KINDS
    # (the loop is the cost of a listing: what it needs per node is made
    # beforehand by builtins, the places and the kinds' objects)
    places = zip(repeat(sub), range(1, n))
    kind_of = _KIND_OF.get
    for x, i, p, pl in zip(islice(nodes, 1, None), islice(kinds, 1, None),
                           islice(parents, 1, None), places):
        d = x.__dict__
        k = kind_of(i)
        if k is not None:
            d['kind'] = k
        d['_tu'] = tu
        d['place'] = pl
        lists[p].append(x)
        if i not in leaves:
            lists[pl[1]] = d['children'] = []
    return sub


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
    elif _lister() is not None:
        sub = _subtree_native(_lister(), c, out)
        if sub is not None:
            c.__dict__['place'] = (sub, 0)
            subtrees(c._tu).append(sub)
        else:
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
            subtrees(c._tu).append(sub)
        else:
            # a parent that the visit did not pass before (never seen): c's
            # children listed one level, each listing its own in turn
            out = _one_level(c)
    c.__dict__['children'] = out
    return out


def subtrees(tu):
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
        at = _facts_at(self)
        if at is not None:
            f, j = at
            r = _range_from(f.extents, j * _RANGE_BYTES)
            r.__dict__['_facts'] = at
            return r
        return lib().clang_getCursorExtent(self)

    @_Once
    def spelling(self):
        return ci.conf.lib.clang_getCursorSpelling(self)

    @_Once
    def location(self):
        at = _facts_at(self)
        if at is not None:
            return at[0].location(3 * at[1] + 2)
        return lib().clang_getCursorLocation(self)

    # The bindings' versions of these two compare the result with a null
    # cursor they fetch from libclang, two more calls each time.
    @_Once
    def referenced(self):
        if self._kind_id == _DECL_REF_KIND:
            at = _facts_at(self)
            if at is not None:      # (listed with the reference)
                return _cursor_result(_cursor_from(at[0].referenced, at[1] * _CURSOR_BYTES),
                                      self)
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


_DECL_REF_KIND = ci.CursorKind.DECL_REF_EXPR.value
_cursor_from = Cursor.from_buffer_copy

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


def children(c):
    return list(adopt(c).children)


def kids(c):
    """c's children: the cached list itself (do not modify it)."""
    try:
        return c.__dict__['children']
    except KeyError:
        return adopt(c).children
