"""A thread not started yet: its continuation holds a spawn thunk
S__start, whose code says which cps function it starts (a call of T__cps,
or T inlined into it) and so the names of its arguments."""

import gdb

from .names import CPS_CALL_RE, GENERATED_RE, _kind_of
from .symbols import body_symbol, cname, _function_block, _loc_of_symbol


_inlined_params = {}


def _spawn_target(thunk_sym):
    """The cps function a spawn thunk S__start calls, read from its code: a
    call of T__cps, or (optimised) T's entry or body inlined into it."""
    try:
        b = gdb.block_for_pc(int(thunk_sym.value().address))
        arch = gdb.selected_inferior().architecture()
        insns = arch.disassemble(b.start, b.end - 1)
        # T inlined into the thunk first: the calls in its code are T's own
        # (a function ending with `cpc_sleep(s)` calls cpc_sleep__cps)
        for insn in insns:
            ib, outermost = gdb.block_for_pc(insn['addr']), None
            while ib is not None and ib.function is not None and ib.function != thunk_sym:
                m = GENERATED_RE.match(cname(ib.function))
                if m and _kind_of(m) in ('cps', 'body'):
                    outermost = (ib, m)
                ib = ib.superblock
            if outermost is not None:
                ib, m = outermost
                # (an inlined function's symbol has the line of the call: T's
                # own line is that of its entry's code, pinned there)
                loc = None
                for i2 in insns:
                    if ib.start <= i2['addr'] < ib.end:
                        sal = gdb.find_pc_line(i2['addr'])
                        if sal.symtab is not None and \
                                sal.symtab.filename == ib.function.symtab.filename:
                            loc = (sal.symtab.filename, sal.line)
                            break
                _inlined_params[m.group(1)] = (
                    [x.name for x in ib if x.is_argument and not x.name.startswith('cpc_')],
                    loc)
                return m.group(1)
        for insn in insns:
            m = CPS_CALL_RE.search(insn['asm'])
            if m:
                return m.group(1)
    except (RuntimeError, gdb.error, AttributeError):
        pass
    return None


def _param_names(sym):
    """The CPC parameters of a generated entry point (less cpc_k)."""
    if sym is None:
        return None
    b = _function_block(int(sym.value().address))
    if b is None:
        return None
    return [x.name for x in b if x.is_argument and x.name != 'cpc_k']


def _start_target(name, sym, fn):
    """(function, (file, line), parameter names) of the cps function that
    the spawn thunk `name` (symbol sym, at address fn) starts."""
    target = _spawn_target(sym) if sym is not None else None
    if target is None:
        return name, None, None
    ts = gdb.lookup_symbol(target + '__cps', gdb.block_for_pc(fn))[0] \
        if gdb.block_for_pc(fn) is not None else None
    if ts is None:
        ts = gdb.lookup_global_symbol(target + '__cps') or \
            gdb.lookup_static_symbol(target + '__cps')
    loc = _loc_of_symbol(ts)
    try:
        names = _param_names(ts)
    except (RuntimeError, gdb.error, AttributeError):
        names = None
    inlined = _inlined_params.get(target, (None, None))
    names = names or inlined[0]
    for helper in ('__body', '__bounce', '__defer', '__resume_1'):
        if loc is not None:
            break
        # T's entry inlined into the thunk: one of its other
        # functions is declared on its line too
        hs = body_symbol(target) if helper == '__body' else \
            gdb.lookup_static_symbol(target + helper) or \
            gdb.lookup_global_symbol(target + helper)
        loc = _loc_of_symbol(hs)
    return target, loc or inlined[1], names
