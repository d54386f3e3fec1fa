"""The table of dead variables of a cps function, for gdb.

At each resume point N of function F some of the program's variables in
scope are not restored (they are dead across the call): gdb's `info
locals` shows each as `<optimized out>` until the thread passes a line
that sets it.  The translator writes what gdb needs as data the program
never reads (the gdb extension, tools/gdb/cpc-gdb.py, does):

- `F__dead_vars`: one string, the variables that some resume point leaves
  dead, `NAME@LINE,LINE` (the lines of the statements that set it),
  separated by spaces and numbered from 0 in declaration order;
- `F__dead[N]`: resume point N's set, as numbers of `F__dead_vars`:
  either the whole set (`0 3 5`, the empty string for none), or its
  difference from resume point N-1's set (`+7 -3`: 7 added, 3 removed),
  or `=` when it is N-1's set.  Entry 0 is the empty set.

Each entry is the shorter of the whole set and the difference, so the
table grows with the changes from one resume point to the next, not with
the resume points times the variables in scope (a function of thousands of
labels each followed by a call had thousands of dead variables at each).
An entry that several resume points share and that is longer than a name
is written once, as the array `F__dead_K` they point to.

The sets are Python ints, masks of bits (analysis/cfg.Bits), whose bit
numbers are mapped to the variables' numbers.  Only the bits that change
from one resume point to the next are listed, so the work, like the table,
grows with the changes."""
from functools import reduce
from operator import or_

from .. import rewrite as rw


def _numbers(m):
    """The bit numbers of mask m, ascending."""
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def entries(sets, number=None):
    """The texts of the entries for resume points 1, 2, ... whose dead sets
    are the masks `sets` (module docstring); `number` maps a bit number of
    the masks to the variable's number in the table (by default the same)."""
    num = (lambda bits: bits) if number is None else \
        (lambda bits: [number[b] for b in bits])
    out, prev = [], 0
    for m in sets:
        changed = m ^ prev
        if not changed:
            out.append('=' if m else '')
        elif m.bit_count() <= changed.bit_count():
            out.append(' '.join(map(str, sorted(num(_numbers(m))))))
        else:
            # (one token per change, by variable number)
            signs = sorted([(i, '+') for i in num(_numbers(changed & m))] +
                           [(i, '-') for i in num(_numbers(changed & prev))])
            out.append(' '.join('%s%d' % (s, i) for i, s in signs))
        prev = m
    return out


def decode(texts):
    """The inverse of entries(): for resume points 1, 2, ... the set of
    variable numbers that their entries' texts say (what the gdb
    extension's reader computes)."""
    out, cur = [], set()
    for t in texts:
        if t == '=':
            pass
        elif t[:1] in ('+', '-'):
            cur = set(cur)
            for tok in t.split():
                (cur.add if tok[0] == '+' else cur.discard)(int(tok[1:]))
        else:
            cur = {int(tok) for tok in t.split()}
        out.append(cur)
    return out


def table(name, items, sets, number=None):
    """The C of function `name`'s tables: `items` the texts `NAME@LINES` of
    the variables, in their numbering; `sets` the masks of resume points
    1, 2, ... and `number` as for entries()."""
    texts = entries(sets, number)
    uses = {}
    for e in texts:
        uses[e] = uses.get(e, 0) + 1
    shared, arrays = {}, []
    for e in texts:
        if uses[e] > 1 and e not in shared and len(e) > len(name) + 8:
            shared[e] = '%s__dead_%d' % (name, len(shared) + 1)
            arrays.append('static const char %s[] __attribute__((used)) = "%s";\n'
                          % (shared[e], e))
    return ''.join(arrays) + \
        'static const char %s__dead_vars[] __attribute__((used)) = "%s";\n' % (
            name, ' '.join(items)) + \
        'static const char *const %s__dead[%d] __attribute__((used)) = { "", %s };' % (
            name, len(texts) + 1, ', '.join(shared.get(e) or '"%s"' % e for e in texts))


def definition_lines(u, cfg):
    """{variable key: sorted lines of the statements that set it}."""
    out = {}
    for n in cfg.nodes:
        if n.cursor is None or not n.defs:
            continue
        line = rw.presumed_line(u, n.cursor.extent.start.offset)[1]
        for k in n.defs:
            out.setdefault(k, set()).add(line)
    return {k: sorted(v) for k, v in out.items()}


def of_function(u, f, cfg, sets):
    """The table of function f (of unit u, graph cfg) whose resume points'
    dead sets are `sets` (masks of cfg.bits): the variables any of them
    leaves dead, in declaration order (not a set's, so that the output
    does not depend on the process's string hashing), and the lines that
    set each."""
    bits = cfg.bits
    defined = definition_lines(u, cfg)
    keys = sorted(bits.ordered(reduce(or_, sets, 0)),
                  key=lambda k: f.vars[k].cursor.location.offset)
    number = {bits.index[k]: i for i, k in enumerate(keys)}
    items = ['%s@%s' % (f.vars[k].name, ','.join(map(str, defined.get(k, ()))))
             for k in keys]
    return table(f.name, items, sets, number)
