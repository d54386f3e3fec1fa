"""Room for deep trees.

The passes walk Clang's trees recursively, one or a few Python frames per
level of nesting, and a C program can nest as deep as the C compiler allows:
a 2,000-term `&&` chain, a sum of 600 calls, 330 `else if` branches.  Python's
default limit (1,000 frames on the main thread's 8 MiB stack) is far below
that.  `deep(fn)` runs `fn` on a thread of its own with a large stack (only
the pages it touches are ever committed) and a recursion limit that the stack
can hold, so a translation is limited by the size of the input, not by its
shape.  A program deeper still gets a diagnostic, not a crash.
"""
import ctypes
import functools
import sys
import threading

STACK_BYTES = 1 << 30          # virtual; committed only as deep as the walk goes
RECURSION_LIMIT = 120_000      # frames, about 8 KiB of C stack each at worst


class TooDeep(Exception):
    """The input nests deeper than even the large stack allows."""


def deep(fn):
    """`fn` (same arguments, same result, same exceptions) run with room for
    RECURSION_LIMIT frames; RecursionError becomes TooDeep."""

    @functools.wraps(fn)
    def run(*args, **kwargs):
        if getattr(_state, 'inside', False):      # already on a deep thread
            return fn(*args, **kwargs)
        box = {}

        def body():
            _state.inside = True
            try:
                box['value'] = fn(*args, **kwargs)
            except RecursionError:
                box['error'] = TooDeep()
            except ctypes.ArgumentError as e:   # ctypes wraps it
                box['error'] = TooDeep() if 'RecursionError' in str(e) else e
            except BaseException as e:      # re-raised on the caller's thread
                box['error'] = e

        with _LOCK:         # the recursion limit is per interpreter
            old_size = threading.stack_size(STACK_BYTES)
            old_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
            try:
                t = threading.Thread(target=body, name='cpc-translate', daemon=True)
                t.start()
                t.join()
            finally:
                threading.stack_size(old_size)
                sys.setrecursionlimit(old_limit)
        if 'error' in box:
            raise box['error']
        return box['value']

    return run


_state = threading.local()
_LOCK = threading.Lock()
