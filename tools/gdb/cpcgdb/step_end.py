"""Where gdb's own next or step ended, seen from the frame it started in:
still there, in a callee, out of it otherwise than through the call; and
whether the extension goes on from that stop (then gdb's print of it is
suppressed)."""

import gdb

from . import state
from .cpsframe import _older
from .names import GENERATED_RE, _kind_of, TRAMPOLINES
from .symbols import cname, _function_block, _owns


def _step_goes_on(f):
    """Whether the stop now ending a next or step (not at a breakpoint, no
    signal) is one _after_step goes on from, to where the thread resumes
    (its conditions, as far as they can be told before the stop's print)."""
    if state.step is None or state.step[0] not in ('next', 'step', 'until'):
        return False
    kind, bp, start, mode, into = state.step
    try:
        if bp.hit or any(b.hit for b in into) or _at_user_breakpoint(f):
            return False
        if mode == 'enter':
            return True
        if mode == 'ends':
            return not _still_in(start) and _out_of_users_code(f)
        if mode == 'chunk':
            return _still_in(start)
        if _entered_callee(start) or (mode == 'call' and _left_normally(start)) or \
                (mode == 'return' and _still_in(start)):
            return False
        return True
    except (gdb.error, RuntimeError, ValueError, AttributeError):
        return False


def _out_of_users_code(f):
    """Whether frame f runs the scheduler's code, or the glue generated
    around a cps function's body (a thread's first function returned
    there), not the program's."""
    name = cname(f)
    m = GENERATED_RE.match(name)
    if m is not None:
        return _kind_of(m) != 'body'
    return name in TRAMPOLINES or name.startswith('cpc_') or f.find_sal().symtab is None


def _at_user_breakpoint(f):
    pc = f.pc()
    for b in gdb.breakpoints():
        if b.is_valid() and b.number > 0 and b.enabled and \
                any(loc.address == pc for loc in getattr(b, 'locations', None) or []):
            return True
    return False


def _still_in(start):
    try:
        return start.is_valid() and gdb.selected_frame() == start
    except gdb.error:
        return False


def _left_normally(start):
    """Still in the body that made the call, elsewhere than its epilogue
    (the call was not reached: a jump, or the step ended early)."""
    try:
        f = gdb.selected_frame()
        if not start.is_valid() or f != start:
            return False
        fb = _function_block(f.pc())
        last = max((e for e in f.find_sal().symtab.linetable()
                    if _owns(fb, e.pc)), key=lambda e: e.pc)
        return f.find_sal().line != last.line
    except (gdb.error, RuntimeError, ValueError, AttributeError):
        return False


def _entered_callee(start):
    try:
        f = gdb.selected_frame()
    except gdb.error:
        return False
    if f == start or not start.is_valid():
        return False
    return any(g == start for g in _older(f))
