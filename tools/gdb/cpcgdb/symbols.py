"""gdb's symbols and blocks in CPC's terms: the function at an address,
whose code an address is, structs seen from a compilation unit, source
locations, the body of a cps function F (named F in the C) and a frame's
generated C name (cname: F__body for that body)."""

import re

import gdb

from .names import GENERATED_RE


def _function_at(addr):
    """(name, gdb.Symbol or None) of the function at addr."""
    b = _function_block(addr)
    if b is not None:
        return cname(b.function), b.function
    out = gdb.execute('info symbol 0x%x' % addr, to_string=True)
    m = re.match(r'(\S+)( \+ \d+)? in section', out)
    return (m.group(1) if m else '0x%x' % addr), None


def _function_block(addr):
    """The block of the (not inlined) function holding addr, or None."""
    try:
        b = gdb.block_for_pc(addr)
    except RuntimeError:
        return None
    found = None
    while b is not None and not b.is_static and not b.is_global:
        if b.function is not None:
            found = b
        b = b.superblock
    return found


def _owns(fb, pc):
    """Whether pc is code of fb's function.  A function that gcc splits
    into a hot and a cold part (f and f.cold) has one block spanning both,
    and whatever functions lie between them: its start and end alone do
    not say whose code an address is."""
    if not fb.start <= pc < fb.end:
        return False
    b = _function_block(pc)
    return b is not None and b.start == fb.start and b.function.name == fb.function.name


def _type(name, sym):
    """struct `name` as seen from the compilation unit of sym."""
    block = None
    if sym is not None:
        try:
            block = gdb.block_for_pc(int(sym.value().address))
        except (RuntimeError, gdb.error):
            block = None
    try:
        return gdb.lookup_type('struct ' + name, block) if block else \
            gdb.lookup_type('struct ' + name)
    except gdb.error:
        return None


def _where(sym_or_line):
    if sym_or_line is None:
        return ''
    fname, line = sym_or_line
    return ' at %s:%d' % (fname, line) if fname else ''


def _loc_of_symbol(sym):
    if sym is None or sym.symtab is None:
        return None
    return (sym.symtab.filename, sym.line)


def _loc_of_pc(pc):
    sal = gdb.find_pc_line(pc)
    if sal.symtab is None or sal.line == 0:
        return None
    return (sal.symtab.filename, sal.line)


def user_name(name):
    """The CPC name of a generated C function (F__body, F__cps -> F)."""
    m = GENERATED_RE.match(name or '')
    return m.group(1) if m else name


# The function holding cps function F's code is named F in the C (its debug
# information names it so, and gdb's own views show F); its symbol is
# F__body.  The extension reasons on the generated names: cname() gives a
# frame's or a function symbol's, F__body for such a body.
_is_body_cache = {}


def _is_body(sym):
    """Whether function symbol sym is the body of a cps function: named F,
    with F__cps, its entry, in the same compilation unit."""
    name = sym.name if sym is not None else None
    if not name or GENERATED_RE.match(name) or sym.symtab is None:
        return False
    key = (name, sym.symtab.filename)
    if key not in _is_body_cache:
        found = False
        try:
            # (F__cps, or F__bounce where gcc inlined the entry into its
            # only caller, a spawn's thunk: each cps function has both)
            e = gdb.lookup_static_symbol(name + '__cps') or \
                gdb.lookup_global_symbol(name + '__cps')
            for c in ([e] if e is not None else []) + \
                    list(gdb.lookup_static_symbols(name + '__cps')) + \
                    list(gdb.lookup_static_symbols(name + '__bounce')):
                if c.symtab is not None and c.symtab.filename == sym.symtab.filename:
                    found = True
                    break
        except (gdb.error, RuntimeError, AttributeError):
            pass
        _is_body_cache[key] = found
    return _is_body_cache[key]


def cname(frame_or_sym):
    """The generated C name of a gdb.Frame's function or of a function
    symbol: F__body for the body of cps function F, else its name."""
    if isinstance(frame_or_sym, gdb.Frame):
        name = frame_or_sym.name() or ''
        try:
            sym = frame_or_sym.function()
        except (RuntimeError, gdb.error):
            sym = None
        if sym is None or sym.name != name:
            # (an inlined frame: its block's function)
            try:
                b = frame_or_sym.block()
                while b is not None and b.function is None:
                    b = b.superblock
                sym = b.function if b is not None else sym
            except (RuntimeError, gdb.error):
                pass
    else:
        sym = frame_or_sym
        name = sym.name if sym is not None else ''
    return name + '__body' if sym is not None and sym.name == name and _is_body(sym) else name


def body_symbol(func, block=None):
    """The function symbol of the body of cps function func (named func in
    the C, or func__body), or None."""
    for name in (func, func + '__body'):
        found = []
        try:
            if block is not None:
                found.append(gdb.lookup_symbol(name, block)[0])
            found += [gdb.lookup_static_symbol(name), gdb.lookup_global_symbol(name)]
        except (gdb.error, RuntimeError):
            pass
        for sym in found:
            if sym is not None and sym.addr_class == gdb.SYMBOL_LOC_BLOCK and \
                    (name != func or _is_body(sym)):
                return sym
    return None


def _fmt_value(v):
    try:
        return v.format_string(summary=True) if v.type.code in (
            gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION, gdb.TYPE_CODE_ARRAY) else str(v)
    except gdb.error as e:
        return '<%s>' % e
