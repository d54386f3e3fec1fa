"""Before next, step and finish (hook-CMD): where this CPC thread goes on
(the resume label after a cps call on this line, the caller's after this
function returns, a deferred body's first statement, the next chunk of a
body cut into chunks), and the breakpoints that stop it there."""

import re

import gdb

from . import state
from .breakpoint_stop import _MI
from .continuation import continuation_frames, _resume_point, _skip_size, _wait
from .cpsframe import _frame_k
from .finish_line import hold
from .glue import _skip_generated_glue
from .names import _chunk, chunk_symbols, GENERATED_RE, _kind_of
from .resume_breakpoints import _ResumeBreakpoint
from .resume_lines import _labels_of, _resume_loc
from .stacks import _count_bodies, _groups, running_stack
from .stop_print import _quiet_finish
from .symbols import body_symbol, cname, _function_block, _owns, user_name
from .tailcalls import _cps_calls


def _caller_resume(f, at_stub=False, at_label=False):
    """(address of the resume label, k) of the cps caller of the function
    running in frame f: where it goes on once f's function returns.  With
    at_stub, when the label has no address (optimised: the caller's body
    is inlined into its resume function), (the resume function's address,
    k, True): the thread is stopped where that function starts, then taken
    on to the call's line by _to_call_line."""
    name = cname(f)
    r = running_stack(f)
    if r is None or r[0] is None:
        return None
    k, frames, _ = r
    mine = [g for g in frames if user_name(cname(g)) == user_name(name)]
    skip = _count_bodies(_groups(mine, k))
    top = continuation_frames(k, skip=skip)
    if not top or top[0].note:
        return None
    caller = top[0].func
    func, n, fn = _resume_point(_wait(k) - 8 - _skip_size(k, skip))[:3]
    if n is None or func != caller:
        return None
    line = (_resume_loc(caller, n, fn) or (None, None))[1]
    addr = _labels_of(caller, fn).get(line)
    if addr is None:
        return (fn, k, True) if at_stub and line is not None else None
    end = _past_restores(addr, line)
    return (addr, k, False, end) if at_label else (end, k)


def _past_restores(addr, line):
    """Where the caller's code after the call's resume label addr (on the
    call's line) has restored its variables and not yet taken the result:
    the last statement of the call's line after the label before the first
    that calls a function.  (The restores call none; the statements of the
    user's that share the call's line, as in a spawned statement written on
    one line, `cpc_spawn { int r = f(); printf(...); }`, and the frame's
    drop and the return to the caller's caller after them, are not the
    call's.)"""
    fb = _function_block(addr)
    rows = sorted((e.pc, e.line) for e in gdb.find_pc_line(addr).symtab.linetable()
                  if e.pc >= addr and _owns(fb, e.pc))
    arch = gdb.selected_inferior().architecture()
    end = addr
    for (a, ln), b in zip(rows, [r[0] for r in rows[1:]] + [fb.end]):
        if ln != line or a > addr and b > a and any(
                insn['asm'].startswith('call') for insn in arch.disassemble(a, b - 1)):
            break
        end = a
    return end


def _before_step(kind):
    """Before next/step/finish: the breakpoint where this CPC thread goes
    on, and how to end there (mode: 'call' after a cps call on this line,
    'return' after this function returns, 'enter' into a deferred body,
    'ends' past the end of the thread's first function)."""
    if kind == 'until':
        # (`until` and `until LOCATION`, which no hook tells apart, agree
        # with next only past the end of a thread's first function, where
        # the function's frame pops: there alone they go on as next does)
        _before_step('next')
        if state.step is not None and state.step[3] == 'ends':
            state.step = ('until',) + state.step[1:]
        elif state.step is not None:
            for b in [state.step[1]] + state.step[4]:
                b.remove()
            state.step = None
        return
    state.step = None
    _skip_generated_glue()
    try:
        f = gdb.selected_frame()
        name = cname(f)
        if not GENERATED_RE.match(name):
            return
        if kind == 'finish' and not _MI:
            hold(f)
        target, into, then = None, [], None
        if kind == 'finish':
            # (the result is read at the resume label, where the caller's
            # frame is still the top one; the stop is past the restores)
            target, mode = _caller_resume(f, True, True), 'finish'
            if target is not None and len(target) == 4:
                target, then = target[:3], target[3]
            if target is None and not _MI and _thread_outermost(f):
                state.step = (kind, _NoBreakpoint(), user_name(name), 'outermost', [])
                _quiet_finish(f)
                return
        elif name.endswith('__cps'):
            # at a cps function's entry: its body may run later, from the
            # trampoline (a deferred entry), or at once (then `step` enters it)
            g = name[:-len('__cps')]
            body = body_symbol(g, f.block())
            first = _first_statement(body) if body is not None else None
            if first is not None:
                # (and a stop where the body starts: its opening is on the
                # entry's line, so gdb's step would take it for the rest of
                # the entry's line and stop in the runtime's helpers that
                # its dispatch calls)
                target, mode = (first, _frame_k(f)), 'enter'
                into = [_ResumeBreakpoint(int(body.value().address), _frame_k(f), True)]
        elif _kind_of(GENERATED_RE.match(name)) == 'body':
            addr = _labels_of(name, f.pc()).get(f.find_sal().line)
            chunk = _next_chunk(f)
            # (a label of this line in the next chunk is past the cut)
            if addr is not None and f.pc() < addr and _owns(_function_block(f.pc()), addr):
                target, mode = (addr, _frame_k(f)), 'call'
                if kind == 'step':
                    into = _into_callees(f, addr)
            elif chunk is not None:
                target, mode = (chunk, _frame_k(f)), 'chunk'
            else:
                # optimised, where the label of this line's resume point
                # has no address, or gcc moved the code: when a callee's
                # entry is still to be entered from here, the thread goes
                # on after the call where the resume function F__resume_N
                # starts
                stub = _resume_stub(f)
                into = _into_callees(f, None, kind == 'step') if stub is not None else []
                if into:
                    target, mode = (stub, _frame_k(f), True), 'call'
                else:
                    # (optimised, the caller's body may be inlined into its
                    # resume function: the thread is stopped where it starts)
                    target, mode = _caller_resume(f, True), 'return'
                    if target is None and kind in ('next', 'step') and \
                            _ends_function(f) and _thread_outermost(f):
                        # (no cps caller: the rest of the line ends the
                        # thread, a call on it having returned already)
                        state.step = (kind, _NoBreakpoint(user_name(name)), f, 'ends', [])
                        return
        if target is not None and target[1] is not None:
            state.step = (kind, _ResumeBreakpoint(*target), f, mode, into)
            if kind == 'finish' and not _MI:
                _quiet_finish(f)
                state.step[1].returning = _return_type(f)
                state.step[1].then = then
        elif into:
            state.step = (kind, _NoBreakpoint(), f, mode, into)
        else:
            for b in into:
                b.remove()
    except (gdb.error, RuntimeError, AttributeError, ValueError):
        state.step = None


class _NoBreakpoint:
    """No place to go on to (next/step/finish's target unknown, or the
    thread ends: then func, the cps function it ends in)."""
    hit = False

    def __init__(self, func=None):
        self.func = func

    def remove(self):
        pass


def _next_chunk(f):
    """The address of the first statement of chunk K + 1 of a body cut
    into chunks when the rest of the line where frame f (chunk K) stands
    goes on to it: chunk K ends by calling chunk K + 1 (the cut, on the
    function's closing line, straight after its last statement), else
    None."""
    m = GENERATED_RE.match(cname(f))
    chunks = chunk_symbols(m.group(1), f.block())
    if len(chunks) < _chunk(m):
        return None
    nxt = chunks[_chunk(m) - 1]
    fb = _function_block(f.pc())
    line = f.find_sal().line
    rows = sorted(e.pc for e in f.find_sal().symtab.linetable() if _owns(fb, e.pc))
    closing = max(gdb.find_pc_line(a).line for a in rows)
    arch = gdb.selected_inferior().architecture()
    for a, b in zip(rows, rows[1:] + [fb.end]):
        if b <= f.pc() or b <= a:
            continue
        if gdb.find_pc_line(a).line not in (line, closing):
            return None
        for insn in arch.disassemble(max(a, f.pc()), b - 1):
            if re.search(r'<%s(\+\d+)?>' % re.escape(nxt.name), insn['asm']):
                return _first_statement(nxt)
    return None


def _first_statement(sym):
    """The address of the first statement of the body or chunk of a body
    whose function symbol is sym: its first code on another line than its
    opening (the dispatch, the frame's push or, in a chunk K > 1, the
    restores of the variables it carries, on the function's line)."""
    fb = _function_block(int(sym.value().address))
    for e in sorted(sym.symtab.linetable(), key=lambda e: e.pc):
        if e.line not in (0, sym.line) and _owns(fb, e.pc):
            return e.pc
    return None


def _resume_stub(f):
    """Optimised: the address of the resume function F__resume_N of the one
    resume point N of the line where frame f (cps function F's body,
    inlined) stands (the table F__lines), or None."""
    func = user_name(cname(f))
    try:
        lines = gdb.lookup_symbol(func + '__lines', f.block())[0]
        if lines is None:
            return None
        v = lines.value()
        line = f.find_sal().line
        ns = [n for n in range(1, v.type.range()[1] + 1) if int(v[n]) == line]
        if len(ns) != 1:
            return None
        stub = gdb.lookup_symbol('%s__resume_%d' % (func, ns[0]), f.block())[0]
        if stub is None:
            # (a body with many resume points: its chunk's dispatch)
            m = GENERATED_RE.match(cname(f))
            chunk = _chunk(m) if m and _kind_of(m) == 'body' else 1
            stub = gdb.lookup_symbol('%s__dispatch%s' % (func, '_%d' % chunk if chunk > 1
                                                           else ''), f.block())[0]
        return int(stub.value().address) if stub is not None else None
    except (gdb.error, RuntimeError, AttributeError, ValueError):
        return None


def _into_callees(f, label, into=True):
    """For `step` at a cps call in the body running in frame f, before its
    resume label: a breakpoint for this thread at the first line of the body
    of each cps function called there (the entries are skipped, see
    _skip_generated_glue), so that step stops there, whether the entry
    calls the body at once or defers it to the trampoline.  label None:
    optimised code, the rest of f's line.  Optimised, where a callee's body
    is inlined into its entry, also a `stopper` where the entry starts (for
    next too, into False: only those)."""
    k = _frame_k(f)
    if k is None:
        return []
    fb = _function_block(f.pc())
    if label is None:
        # (optimised code: the call's line, from here on)
        line = f.find_sal().line
        rows = sorted(e.pc for e in f.find_sal().symtab.linetable() if _owns(fb, e.pc))
        ranges = [(a, b) for a, b in zip(rows, rows[1:] + [fb.end])
                  if b > f.pc() and gdb.find_pc_line(a).line == line]
        ranges = [(max(a, f.pc()), b) for a, b in ranges]
        if not rows:
            # (a function on one line, that of the code before it: gcc
            # starts no row of its own)
            ranges = [(f.pc(), fb.end)]
    else:
        ranges = [(f.pc(), label)]
    out = []
    # (no range: none of the line is left, nor any call)
    calls = _cps_calls(fb, ranges) if ranges else []
    for callee in dict.fromkeys(g for g, _ in calls):
        if callee.startswith('cpc_'):
            continue                    # a primitive, or the runtime's (not stepped into)
        try:
            body = body_symbol(callee, f.block())
            if body is not None:
                if into:
                    # (its first line; a body opening on its first line: its start)
                    first = _first_statement(body)
                    out.append(_ResumeBreakpoint(first, k) if first is not None else
                               _ResumeBreakpoint(int(body.value().address), k, True))
            else:
                firsts = _inlined_first_statement(callee) if into else []
                entry = gdb.lookup_static_symbol(callee + '__cps') or \
                    gdb.lookup_global_symbol(callee + '__cps')
                if (firsts or not into) and entry is not None:
                    # (and a stop at the entry, which gdb's step or next
                    # would enter when the call is a jump: gcc's tail call)
                    stopper = _ResumeBreakpoint(int(entry.value().address), k, True)
                    stopper.stopper = True
                    out += [stopper] + [_ResumeBreakpoint(a, k) for a in firsts]
        except (gdb.error, RuntimeError):
            pass
    return out


def _inlined_first_statement(func):
    """Optimised, where cps function func's body is inlined into its entry
    func__cps and its deferred entry func__bounce (and has no function of
    its own): the addresses where each copy's first statement starts (the
    rows of the lowest line after the declaration's in the inlined body)."""
    out = []
    for helper in ('__cps', '__bounce'):
        sym = gdb.lookup_static_symbol(func + helper) or gdb.lookup_global_symbol(func + helper)
        if sym is None or sym.addr_class != gdb.SYMBOL_LOC_BLOCK or sym.symtab is None:
            continue
        fb = _function_block(int(sym.value().address))
        if fb is None:
            continue
        rows = []
        for e in sym.symtab.linetable():
            if e.line <= sym.line or not _owns(fb, e.pc):
                continue
            b = gdb.block_for_pc(e.pc)
            while b is not None and b.start != fb.start:
                if b.function is not None and b.function.name == func:
                    rows.append(e)
                    break
                b = b.superblock
        if rows:
            first = min(e.line for e in rows)
            pcs = {e.pc for e in rows if e.line == first}
            # where gdb itself would break on that line: gdb's Python line
            # table has no is_stmt, and a row that starts no statement (an
            # instruction gcc scheduled early) would stop in the middle of
            # the line
            try:
                sals = gdb.decode_line('%s:%d' % (sym.symtab.fullname(), first))[1] or ()
            except gdb.error:
                sals = ()
            starts = {sal.pc for sal in sals if sal.pc in pcs}
            out += sorted(starts or pcs)
    return out


def _thread_outermost(f):
    """Whether frame f runs the outermost cps function of its thread: no
    cps caller waits in the continuation (it ends the thread)."""
    r = running_stack(f)
    if r is None or r[0] is None:
        return False
    k, frames, _ = r
    mine = [g for g in frames if user_name(cname(g)) == user_name(cname(f))]
    return not continuation_frames(k, skip=_count_bodies(_groups(mine, k))) and \
        f.older() is not None and GENERATED_RE.match(cname(f.older())) is not None


def _ends_function(f):
    """Whether the rest of the line where frame f (a body) stands ends its
    function: no code of another line follows, but the closing one's."""
    fb = _function_block(f.pc())
    rows = [e for e in f.find_sal().symtab.linetable() if _owns(fb, e.pc)]
    if not rows:
        return True     # (one line, that of the code before it: gcc starts no row)
    last = max(enumerate(rows), key=lambda ie: (ie[1].pc, ie[0]))[1].line
    return all(e.line in (0, f.find_sal().line, last) for e in rows if e.pc > f.pc())


def _return_type(f):
    """The type cps function frame f returns, or None (void): the type of
    the translation's `cpc_ret`, which each `return v;` of its body declares
    in a block of its own (f's function: the body or a chunk; optimised,
    where the body is inlined into each resume function, the `return` may
    be in another one, F__resume_N, or in its entry F__cps)."""
    fb = _function_block(f.pc())
    symtab = f.find_sal().symtab
    if fb is None or symtab is None:
        return None
    func = user_name(cname(f))
    others = []
    for n in range(1, 1000):
        sym = gdb.lookup_static_symbol('%s__resume_%d' % (func, n), gdb.SYMBOL_VAR_DOMAIN)
        if sym is None or sym.addr_class != gdb.SYMBOL_LOC_BLOCK:
            break
        others.append(sym)
    others.append(gdb.lookup_static_symbol(func + '__cps') or
                  gdb.lookup_global_symbol(func + '__cps'))
    blocks = [fb] + [_function_block(int(s.value().address)) for s in others
                     if s is not None and s.addr_class == gdb.SYMBOL_LOC_BLOCK]
    rows = symtab.linetable()
    for i, g in enumerate(blocks):
        if g is None:
            continue
        for e in rows:
            if not _owns(g, e.pc):
                continue
            b = gdb.block_for_pc(e.pc)
            found = None
            while b is not None and b.function is None:
                for sym in b:
                    if sym.name == 'cpc_ret':
                        found = found or sym.type
                b = b.superblock
            # (in another function, only a `return` of f's own body, not
            # of a callee inlined there)
            if found is not None and (i == 0 or b is not None and b.function.name == func):
                return found
    return None
