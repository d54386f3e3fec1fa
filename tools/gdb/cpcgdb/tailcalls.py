"""A thread waiting in a primitive called by a cps function that keeps no
frame of its own (its last action was the call: a tail call drops the
frame): that function, read from the code at the caller's resume point,
shown above the continuation's top frame."""

import gdb

from .continuation import LogicalFrame, _resume_point, _wait
from .names import CPS_CALL_RE
from .resume_lines import _labels, _resume_loc
from .stacks import PRIMITIVE_ENTRIES
from .symbols import body_symbol, cname, _function_at, _function_block, _owns, user_name


def _cps_calls(fb, rows=None):
    """[(callee, address)]: the calls and jumps to a cps function's entry
    X__cps in the code of function block fb (in its rows `rows`, [(start,
    end)], when given; fb None: any function's)."""
    arch = gdb.selected_inferior().architecture()
    out = []
    for a, b in rows or [(fb.start, fb.end)]:
        if b <= a:
            continue
        for insn in arch.disassemble(a, b - 1):
            if fb is not None and not _owns(fb, insn['addr']):
                continue
            op = insn['asm'].split()[0] if insn['asm'].split() else ''
            m = CPS_CALL_RE.search(insn['asm'])
            if m and op.startswith(('call', 'jmp')):
                out.append((m.group(1), insn['addr']))
    return out


_site_callees = {}


def _site_callee(func, n, near):
    key = (func, n, _function_at(near)[0])
    if key not in _site_callees:
        _site_callees[key] = _site_callee_uncached(func, n, near)
    return _site_callees[key]


def _site_callee_uncached(func, n, near):
    """The cps function that F's call at resume point N calls: the last
    call of an entry X__cps in the code of the call's line before the
    resume label F__resumed_N (unoptimised code, where the label has an
    address), or None."""
    lab = _labels(func, near).get('%s__resumed_%d' % (func, n))
    body = body_symbol(func, gdb.block_for_pc(near))
    if not lab or body is None:
        return _inlined_site_callee(func, n, near)
    fb = _function_block(lab[2])         # (the body, or the chunk holding the label)
    rows = sorted(e.pc for e in body.symtab.linetable() if _owns(fb, e.pc) and e.line == lab[1])
    start = [pc for pc in rows if pc < lab[2]]
    calls = _cps_calls(fb, [(start[0], lab[2])]) if start else []
    return calls[-1][0] if calls else None


def _inlined_site_callee(func, n, near):
    """_site_callee in optimised code, where F's body is inlined into its
    entry and its resume functions: the one cps function called on the
    call's line (F__lines) in F's code, or None when there are several."""
    loc = _resume_loc(func, n, near)
    st = gdb.find_pc_line(near).symtab
    if loc is None or st is None:
        return None
    rows = sorted(st.linetable(), key=lambda e: e.pc)
    ranges, callees = [], set()
    for e, nxt in zip(rows, rows[1:]):
        fb = _function_block(e.pc)
        if fb is None or user_name(cname(fb.function)) != func:
            continue
        if e.line == loc[1] and nxt.pc > e.pc:
            ranges.append((e.pc, nxt.pc))
        # a callee inlined there (its entry or body: an inlined function's
        # symbol has the line of its call)
        b = gdb.block_for_pc(e.pc)
        while b is not None and b.start != fb.start:
            if b.function is not None and b.function.line == loc[1]:
                g = user_name(cname(b.function))
                if g != func:
                    callees.add(g)
            b = b.superblock
    callees |= {x for x, _ in _cps_calls(None, ranges)} if ranges else set()
    return callees.pop() if len(callees) == 1 else None


def _tail_called(k, frames):
    """The frames of a thread waiting in a primitive (asleep, on a condvar
    or an fd), with, above the top one, the cps function its call there
    called when that function keeps no frame of its own: it ended with the
    call the thread waits in (a tail call drops the frame before the
    call), at the line of that call when it makes one such call.  Read from
    the code at the top frame's resume point (unoptimised code)."""
    try:
        if not frames or frames[0].note:
            return frames
        func, n, fn = _resume_point(_wait(k) - 8)[:3]
        if n is None:
            return frames
        callee = _site_callee(func, n, fn)
        if callee is None or callee + '__cps' in PRIMITIVE_ENTRIES or \
                callee.startswith('cpc_') and body_symbol(callee) is None:
            return frames
        # (its body, or optimised its entry, into which the body is inlined)
        code = body_symbol(callee, gdb.block_for_pc(fn)) or \
            gdb.lookup_static_symbol(callee + '__cps') or \
            gdb.lookup_global_symbol(callee + '__cps')
        if code is None:
            return frames
        fb = _function_block(int(code.value().address))
        lines = {gdb.find_pc_line(a).line for _, a in _cps_calls(fb)}
        loc = (code.symtab.filename, lines.pop()) if len(lines) == 1 else None
        return [LogicalFrame(callee, loc, [], 'no frame: it ended with the call it waits in')] + \
            frames
    except (gdb.error, RuntimeError, ValueError, AttributeError, IndexError):
        return frames
