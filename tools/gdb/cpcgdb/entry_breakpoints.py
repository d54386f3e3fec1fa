"""The user's breakpoints on cps functions: `break F`, and a breakpoint on
an entry F__cps, stop once per call of F."""

import re

import gdb

from .bp_table import FIRST_PASS
from .cpsframe import _frame_k
from .names import GENERATED_RE, _kind_of, RESUME_RE
from .resume_breakpoints import _Probe
from .symbols import cname, _function_block


# Optimised, gcc inlines F's body into its entry, its deferred entry and its
# resume functions F__resume_N, and gdb puts a location of `break F` at the
# start of each copy.  A copy inlined into a resume function is where the
# thread goes on after one of F's calls, not a call of F: those locations are
# disabled, so that the breakpoint stops once per call of F, as in C.

_adjusting = False


def _resume_copy(addr):
    """Whether addr starts a copy of a cps function's body inlined into
    one of its own resume functions."""
    try:
        b = gdb.block_for_pc(addr)
    except RuntimeError:
        return False
    chain = []
    while b is not None and not b.is_static and not b.is_global:
        if b.function is not None:
            chain.append(b.function)
        b = b.superblock
    for inner, outer in zip(chain, chain[1:]):
        m = RESUME_RE.match(outer.name or '')
        if m and inner.name == m.group(1) and cname(inner) == inner.name + '__body':
            return True
    return False


def _skip_resume_copies(bp):
    global _adjusting
    if _adjusting:
        return
    try:
        if bp.type != gdb.BP_BREAKPOINT or not bp.visible or not bp.location:
            return
        spec = bp.location.strip()
        if spec.startswith('-function '):
            spec = spec[len('-function '):].strip()
        if not re.fullmatch(r'[A-Za-z_]\w*', spec) or \
                not (gdb.lookup_global_symbol(spec + '__cps') or
                     gdb.lookup_static_symbol(spec + '__cps')):
            return                      # not a cps function's name
        locs = getattr(bp, 'locations', None) or []
        _adjusting = True
        for loc in locs:
            if loc.enabled and _resume_copy(loc.address):
                loc.enabled = False
    except (RuntimeError, gdb.error, AttributeError, NotImplementedError):
        pass
    finally:
        _adjusting = False


#
# A call that F's entry F__cps defers (its call budget spent, or no room)
# runs later from the trampoline through F__bounce, which calls (or, at
# -O2, jumps to) F__cps again.  A breakpoint of the user's at the start of
# F__cps would stop twice for the one call: it gets the condition
# $_cpc_first_pass() (and-ed with the user's own), false on that second
# pass.  A probe at F__bounce (it never stops the program) notes (F, k) for
# the thread whose continuation k it runs; the condition takes the note
# back at F__cps.  The notes are dropped at every stop.

_bounced = set()        # (F, continuation) between F__bounce and F__cps
_bounce_probes = {}     # F: the probe at F__bounce


def _note_bounce(func):
    _bounced.add((func, int(gdb.selected_frame().read_register('rdi'))))


def _one_stop_per_call(bp):
    """Give breakpoint bp the condition FIRST_PASS when one of its
    locations starts a cps function's entry F__cps, with a probe at
    F__bounce."""
    global _adjusting
    if _adjusting:
        return
    try:
        _adjusting = True
        if bp.type == gdb.BP_BREAKPOINT and bp.visible and bp.number > 0:
            _add_first_pass(bp)
    except (RuntimeError, gdb.error, AttributeError, NotImplementedError):
        pass
    finally:
        _adjusting = False


def _cold_part_of_entry(addr):
    """Whether addr lies in F__cps.cold, the part of an entry gcc put
    apart: its deferred path (the call of F__defer or of the runtime's
    cpc_deferN, docs/abi.md), run by a call whose entry has already been
    stopped at."""
    try:
        out = gdb.execute('info symbol 0x%x' % addr, to_string=True)
    except (gdb.error, RuntimeError):
        return False
    # (gdb may print the symbol decoded as Ada's: `f.cps[cold]`)
    m = re.match(r'(\S+?)(__|\.)cps(\.cold|\[cold\])( \+ \d+)? in section', out)
    return m is not None


def _add_first_pass(bp):
    funcs = set()
    for loc in getattr(bp, 'locations', None) or []:
        if _cold_part_of_entry(loc.address):
            # (gdb puts a location at the start of each part of the entry)
            try:
                loc.enabled = False
            except (AttributeError, NotImplementedError, RuntimeError, gdb.error):
                pass
            continue
        b = _function_block(loc.address)
        m = GENERATED_RE.match(cname(b.function)) if b is not None else None
        # (the entry's own code or the runtime's inlined into it, not a
        # copy of the body F inlined into it, which runs once per call)
        if m and _kind_of(m) == 'cps' and \
                _innermost_function(loc.address) not in (m.group(1), m.group(1) + '__body'):
            funcs.add(m.group(1))
    for func in funcs - set(_bounce_probes):
        sym = gdb.lookup_static_symbol(func + '__bounce') or \
            gdb.lookup_global_symbol(func + '__bounce')
        if sym is not None and sym.addr_class == gdb.SYMBOL_LOC_BLOCK:
            # (by name: the program's addresses change when it starts)
            _bounce_probes[func] = _Probe('*%s__bounce' % func,
                                          lambda func=func: _note_bounce(func))
    cond = bp.condition
    if funcs and (cond is None or FIRST_PASS not in cond):
        bp.condition = FIRST_PASS if cond is None else '(%s) && %s' % (cond, FIRST_PASS)


def _innermost_function(addr):
    """The name of the innermost function whose code is at addr: an inlined
    one's (a body's copy inlined into its entry) or the function's own."""
    b = gdb.block_for_pc(addr)
    while b is not None and b.function is None:
        b = b.superblock
    return b.function.name if b is not None else None


class _FirstPass(gdb.Function):
    """$_cpc_first_pass(): 0 where a cps function's entry F__cps runs a
    second time for a call it deferred, through F__bounce; else 1."""

    def __init__(self):
        super().__init__('_cpc_first_pass')

    def invoke(self):
        try:
            f = gdb.selected_frame()
            m = GENERATED_RE.match(cname(f))
            if m and _kind_of(m) == 'cps' and _bounced:
                k = _frame_k(f)
                note = (m.group(1), k if k is not None else int(f.read_register('rdi')))
                if note in _bounced:
                    _bounced.discard(note)
                    return 0
        except (gdb.error, RuntimeError, ValueError, AttributeError):
            pass
        return 1


def _drop_bounce_notes(event):
    _bounced.clear()
