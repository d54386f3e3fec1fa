"""The translator's C helper (translator/native/cursor_facts.c, built by
`make translator` into build/translator/cursor_facts.so, installed beside
this module): it lists a subtree of Clang's cursors in one call, where the
bindings make a Python callback per node (cursors.py).  When the library
is absent, does not load or is of another version (cf_abi), `listing()` is None and cursors.py lists
through the bindings, with the same result.  CPC_NO_NATIVE=1 in the
environment leaves it unused.
"""
import ctypes
import os

import clang.cindex as ci

from .paths import CHECKOUT

NAME = 'cursor_facts.so'
# cursor_facts.c's cf_abi: the version of the Listing and the functions this
# module reads.  A library of another version (built from another version of
# the translator) is not used.
ABI = 2


class Listing(ctypes.Structure):
    """cursor_facts.c's Listing: `n` nodes in preorder, the root first (-1:
    the listing was given up), and for each its cursor, kind, parent index
    and the end of its subtree; when asked, its extent, the extent's start
    and end and its location, these three locations' offsets, and for a
    reference (DECL_REF_EXPR) the declaration it designates."""
    _fields_ = [('n', ctypes.c_long),
                ('cursors', ctypes.c_void_p),
                ('kinds', ctypes.POINTER(ctypes.c_int)),
                ('parents', ctypes.POINTER(ctypes.c_int)),
                ('ends', ctypes.POINTER(ctypes.c_int)),
                ('extents', ctypes.c_void_p),
                ('locations', ctypes.c_void_p),
                ('offsets', ctypes.POINTER(ctypes.c_uint)),
                ('referenced', ctypes.c_void_p)]


def candidates():
    """Where the library may be: beside the installed package, then in the
    checkout's build directory."""
    return [os.path.join(os.path.dirname(os.path.abspath(__file__)), NAME),
            os.path.join(CHECKOUT, 'build', 'translator', NAME)]


_state = {}


def load(leaf_kinds, dup_kind):
    """The helper's `cf_list` function, set up with the kinds that have no
    children and the kind whose children libclang may list twice; None
    when it is absent, fails to load or is disabled."""
    if 'fn' in _state:
        return _state['fn']
    fn = None
    if os.environ.get('CPC_NO_NATIVE', '') in ('', '0'):
        for path in candidates():
            if os.path.exists(path):
                fn = _setup(path, leaf_kinds, dup_kind)
                break
    _state['fn'] = fn
    return fn


def _setup(path, leaf_kinds, dup_kind):
    try:
        # (PyDLL: called with the interpreter's lock held, so that two
        # threads never share the helper's one listing at once)
        L = ctypes.PyDLL(path)
    except OSError:
        return None
    try:
        if ctypes.c_int.in_dll(L, 'cf_abi').value != ABI:
            return None
    except ValueError:
        return None
    init = L.cf_init
    init.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.c_int,
                     ctypes.c_int]
    init.restype = ctypes.c_int
    leaves = (ctypes.c_int * len(leaf_kinds))(*leaf_kinds)
    if init(ci.conf.lib._handle, leaves, len(leaf_kinds), dup_kind) != 0:
        return None
    fn = L.cf_list
    fn.argtypes = [ci.Cursor, ctypes.c_int, ctypes.c_int]
    fn.restype = ctypes.POINTER(Listing)
    return fn


def reset():
    """Forget the helper (for tests: the next load() looks again)."""
    _state.clear()
