"""Clang's cursors as the passes read them: one object per node and parse,
children listed once (`kids`), a subtree's preorder kept for the walks
(`Subtree`, `place`), facts computed once per cursor (`once_per_cursor`), and
the operator kinds of unary and binary operators (`binop`, `unop`).
"""
import ctypes

import clang.cindex as ci

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
