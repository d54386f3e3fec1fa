"""The translator's tables read from the program: which variables of a cps
function's frame hold no value after a resume (F__dead, F__dead_vars,
F__lines: translator/cpc/emit/dead_table.py), and those that live in the
frame (F__resident, cpcc -O1 and above).  decode.py reads their texts."""

import gdb

from .cpsframe import _at_edge
from .decode import dead_items, unset_names
from .names import GENERATED_RE, RENAMED_RE
from .symbols import cname


def _resident(frame, args, out, params=None):
    """`out` ([(name, value)] of _frame_variables or _real_args for frame,
    a cps function's) with the variables that live in its frame, read and
    written there in place (cpcc -O1 and above: the table F__resident),
    read from the frame: a parameter's C value is the one it was entered
    with, and a local has no C variable.  Those the resume point did not
    restore are <optimized out>, as lifted ones are (_dead_here).  `params`:
    the parameters of a chunk K > 1 (chunk_params: declared as its locals)."""
    m = GENERATED_RE.match(cname(frame))
    if m is None:
        return out
    try:
        table = gdb.lookup_symbol(m.group(1) + '__resident', frame.block())[0]
        if table is None:
            return out
        names = table.value().string().split()
        fr = frame.read_var('cpc_f')
        if fr.is_optimized_out or int(fr) == 0 or _at_edge(frame):
            return out
        fr = fr.dereference()
        if params is None:
            block = frame.block()
            while block is not None and block.function is None:
                block = block.superblock
            params = {x.name for x in block if x.is_argument} if block is not None else ()
        params = set(params)
    except (gdb.error, gdb.MemoryError, RuntimeError, ValueError, AttributeError):
        return out
    dead = _dead_here(frame)
    vals = {}
    for n in names:
        if (n in params) != args:
            continue
        try:
            vals[n] = fr[n].type.optimized_out() if n in dead else fr[n]
        except (gdb.error, gdb.MemoryError, RuntimeError):
            continue
    user = {}
    for n in vals:
        um = RENAMED_RE.match(n)
        user[um.group(1) if um else n] = vals[n]
    seen = set()
    res = []
    for n, v in out:
        if n in user:
            v = user[n]
            seen.add(n)
        res.append((n, v))
    return res + [(n, v) for n, v in user.items() if n not in seen]


def resident_names(frame):
    """The user's names of the variables resident in cps frame `frame`
    (the table F__resident; empty without one)."""
    m = GENERATED_RE.match(cname(frame))
    if m is None:
        return set()
    try:
        table = gdb.lookup_symbol(m.group(1) + '__resident', frame.block())[0]
        names = table.value().string().split() if table is not None else []
    except (gdb.error, gdb.MemoryError, RuntimeError, ValueError):
        return set()
    return {RENAMED_RE.match(n).group(1) if RENAMED_RE.match(n) else n for n in names}


_DEAD_TABLES = {}      # address of a table F__dead: (its items, its entries read so far)


def _dead_entry(table, names, n):
    """The items `NAME@LINES` of resume point n's entry of a table of dead
    variables (translator/cpc/emit/dead_table.py): an entry is the set of
    numbers of F__dead_vars' items, or its changes from entry n-1 (`+K
    -K`, `=`), so it is read from the last whole set before it.  The texts
    are read from the program once per table (kept until its symbols
    change)."""
    key = int(table.address)
    if key not in _DEAD_TABLES:
        _DEAD_TABLES[key] = (names.string().split(), [''])
    items, texts = _DEAD_TABLES[key]
    while len(texts) <= n:
        texts.append(table[len(texts)].string())
    return [items[i] for i in dead_items(texts, n)]


def _forget_dead_tables(event):
    _DEAD_TABLES.clear()


def _dead_here(frame):
    """The variables of a cps function's frame that hold no value: the
    thread resumed at resume point N, which did not restore them (they are
    dead across the call), and has passed no line that sets them since
    (the translator's tables F__dead and F__lines).  Between the resume
    line and the current one when the current one follows it; when it
    comes before (a loop went round), a variable set on a line after the
    resume or before the current line holds its value."""
    m = GENERATED_RE.match(cname(frame))
    func, kind = m.group(1), m.group(2)
    n = None
    if kind.startswith('resume_'):
        n = int(kind[len('resume_'):])
    else:
        try:
            v = frame.read_var('cpc_resume')
            if not v.is_optimized_out:
                n = int(v)
        except (gdb.error, ValueError, RuntimeError):
            return set()
    if not n:
        return set()
    try:
        b = frame.block()
        table = gdb.lookup_symbol(func + '__dead', b)[0]
        names = gdb.lookup_symbol(func + '__dead_vars', b)[0]
        lines = gdb.lookup_symbol(func + '__lines', b)[0]
        if table is None or names is None or lines is None:
            return set()
        entry = _dead_entry(table.value(), names.value(), n)
        resumed = int(lines.value()[n])
        here = frame.find_sal().line
    except (gdb.error, gdb.MemoryError, RuntimeError, ValueError, IndexError):
        return set()
    return unset_names(entry, resumed, here)
