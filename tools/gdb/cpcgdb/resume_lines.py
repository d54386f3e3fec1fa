"""The line where a cps function F waits at its resume point N: the label
F__resumed_N of its body, or (optimised code, where the label keeps no
address) entry N of the translator's table F__lines, or the first line of
the resume function's code."""

import gdb

from .names import chunk_symbols
from .symbols import body_symbol, _function_block, _owns, user_name


_label_cache = {}


def _labels(func, near):
    """{label name: (file, line, address)} of the resume labels F__resumed_N
    of the body of cps function func (F, or its body's C name F__body),
    looked up from the code at `near`.  gcc puts them in the function's
    block or nested ones, which gdb's lookup does not search: the blocks
    are found through the line table."""
    func = user_name(func)
    near_block = gdb.block_for_pc(near)
    body = body_symbol(func, near_block)
    if body is None:
        return {}
    start = int(body.value().address)
    if start in _label_cache:
        return _label_cache[start]
    out = {}
    # (a body cut into chunks has the labels of its resume points in the
    # chunk that holds each)
    for chunk in [body] + chunk_symbols(func, near_block):
        fb = _function_block(int(chunk.value().address))
        if fb is None:
            continue
        blocks = {(fb.start, fb.end): fb}
        for e in chunk.symtab.linetable():
            if _owns(fb, e.pc):
                b = gdb.block_for_pc(e.pc)
                while b is not None and (b.start, b.end) not in blocks:
                    blocks[(b.start, b.end)] = b
                    b = b.superblock
        for b in blocks.values():
            for x in b:
                if x.addr_class == gdb.SYMBOL_LOC_LABEL and '__resumed_' in x.name:
                    out[x.name] = (x.symtab.filename, x.line, int(x.value()))
    _label_cache[start] = out
    return out


def _resume_loc(func, n, near):
    """(file, line) of the call at which F waits in its frame whose cpc_fn
    is F__resume_N (at `near`): the line of the label F__resumed_N, or
    (optimised code, where the label keeps no address once the body is
    inlined into its resume stub) entry N of the table F__lines the
    translator writes beside F."""
    try:
        lab = _labels(func, near).get('%s__resumed_%d' % (func, n))
        if lab:
            return lab[:2]
    except (RuntimeError, gdb.error, AttributeError):
        pass
    try:
        b = gdb.block_for_pc(near)
        sym = gdb.lookup_symbol(func + '__lines', b)[0] if b is not None else None
        if sym is not None and sym.symtab is not None:
            v = sym.value()
            if 0 < n <= v.type.range()[1]:
                return (sym.symtab.filename, int(v[n]))
    except (RuntimeError, gdb.error, AttributeError, ValueError):
        pass
    try:
        return _inlined_resume_loc(near)
    except (RuntimeError, gdb.error, AttributeError):
        return None


def _inlined_resume_loc(stub):
    """Optimised code keeps no address for the label once the body is
    inlined into its resume stub F__resume_N; the stub's code then goes
    straight to the label's code: its first line other than the
    function's own."""
    fb = _function_block(stub)
    if fb is None or fb.function.symtab is None:
        return None
    own = fb.function.line
    for e in sorted(fb.function.symtab.linetable(), key=lambda e: e.pc):
        if e.line not in (0, own) and _owns(fb, e.pc):
            return (fb.function.symtab.filename, e.line)
    return None


def _labels_of(func, near_pc):
    """{line: address} of the resume labels of cps function func's body."""
    return {line: addr for (_, line, addr) in _labels(func, near_pc).values()}


def waits_on_line(func, near, line):
    """Whether cps function func has a resume point on line (a cps call
    there): a label of its body, or (optimised) an entry of F__lines."""
    try:
        if line in _labels_of(func, near):
            return True
    except (RuntimeError, gdb.error, AttributeError):
        pass
    try:
        b = gdb.block_for_pc(near)
        sym = gdb.lookup_symbol(user_name(func) + '__lines', b)[0] if b is not None else None
        if sym is None:
            return False
        v = sym.value()
        return any(int(v[n]) == line for n in range(1, v.type.range()[1] + 1))
    except (RuntimeError, gdb.error, AttributeError, ValueError):
        return False
