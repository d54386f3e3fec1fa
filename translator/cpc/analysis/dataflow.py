"""Data flow over a control flow graph (cfg.py): `liveness` (backward) and
`possibly_initialised` (forward), solved over bit sets of variables.  Both
over-approximate: a variable reported dead is dead, a variable reported
uninitialised has no assignment on any path.

Invariant: nothing here changes the program.
"""
from .cfg import Cfg


def assigned_anywhere(cfg):
    """Keys of the variables the body of cfg's function may write after its
    entry: assignments, increments, address taken, asm operands (the CFG
    nodes' writes).  A parameter outside this set keeps its entry value."""
    w = set()
    for n in cfg.nodes:
        if n is not cfg.entry:
            w |= n.writes
    return w


class Facts:
    """A data-flow result: node id -> set of keys, converted from its bit
    set when asked (callers look at a few nodes: the call sites)."""

    def __init__(self, bits, masks):
        self.bits = bits
        self.masks = masks
        self._sets = {}

    def __getitem__(self, node_id):
        try:
            return self._sets[node_id]
        except KeyError:
            r = self._sets[node_id] = self.bits.keys_of(self.masks[node_id])
            return r

    def __len__(self):
        return len(self.masks)


def postorder(cfg):
    """The nodes in depth-first postorder from the entry (iteratively: a
    function can be long), then those the entry does not reach."""
    seen = [False] * len(cfg.nodes)
    out = []
    roots = [cfg.entry] + list(cfg.nodes)
    for root in roots:
        if seen[root.id]:
            continue
        seen[root.id] = True
        stack = [(root, iter(root.succ))]
        while stack:
            n, it = stack[-1]
            for s in it:
                if not seen[s.id]:
                    seen[s.id] = True
                    stack.append((s, iter(s.succ)))
                    break
            else:
                stack.pop()
                out.append(n)
    return out


def _solve(order, flow_from, flow_to, gen, keep):
    """The least fixed point of out[n] = gen[n] | (in[n] & keep[n]) with
    in[n] = OR of out[m] for m in flow_from(n), by sweeps over the nodes in
    `order` (reverse postorder for a forward problem, postorder for a
    backward one, so each node mostly sees its inputs final): a sweep
    computes the nodes whose inputs changed since they were last computed,
    and another sweep follows only when a change flowed backwards (a loop).
    Returns (in, out) as lists of ints indexed by node id."""
    n_nodes = len(order)
    ids = [n.id for n in order]
    rank = [0] * n_nodes
    for r, i in enumerate(ids):
        rank[i] = r
    froms = [None] * n_nodes         # by id: the ids it flows from
    tos = [None] * n_nodes           # by id: the ranks it flows to
    for n in order:
        froms[n.id] = [p.id for p in flow_from(n)]
        tos[n.id] = [rank[s.id] for s in flow_to(n)]
    inn = [0] * n_nodes
    out = [0] * n_nodes
    dirty = [True] * n_nodes         # by rank
    again = True
    while again:
        again = False
        for r in range(n_nodes):
            if not dirty[r]:
                continue
            dirty[r] = False
            i = ids[r]
            m = 0
            for p in froms[i]:
                m |= out[p]
            inn[i] = m
            o = gen[i] | (m & keep[i])
            if o != out[i]:
                out[i] = o
                for t in tos[i]:
                    dirty[t] = True
                    if t <= r:
                        again = True
    return inn, out


def liveness(cfg):
    """(live_in, live_out) per node id (sets of var keys; `.masks` holds
    them as bits of cfg.bits); solved once per graph (a function's graph
    is shared: cfg.function_graph)."""
    r = cfg.__dict__.get('liveness')
    if r is None:
        r = cfg.__dict__['liveness'] = _liveness(cfg)
    return r


def _liveness(cfg):
    bits = cfg.bits
    nodes = cfg.nodes
    uses = [bits.mask(n.uses) for n in nodes]
    kill = [~bits.mask(n.defs) for n in nodes]
    # backward: a node's "in" of the solver is its live_out
    out, inn = _solve(postorder(cfg), lambda n: n.succ, lambda n: n.pred, uses, kill)
    return Facts(bits, inn), Facts(bits, out)


def read_before_written(func, stmt):
    """The keys of func's variables whose value statement `stmt` may read
    before it writes them (live where stmt starts)."""
    cfg = Cfg(func, root=stmt)
    live_in, _ = liveness(cfg)
    return live_in.bits.keys_of(live_in.masks[cfg.entry.id])


def possibly_initialised(cfg):
    """(init_in, init_out) per node id: variables assigned on some path to
    the node (solved once per graph, as liveness)."""
    r = cfg.__dict__.get('possibly_initialised')
    if r is None:
        r = cfg.__dict__['possibly_initialised'] = _possibly_initialised(cfg)
    return r


def _possibly_initialised(cfg):
    bits = cfg.bits
    nodes = cfg.nodes
    gen = [bits.mask(n.writes) | bits.mask(n.defs) for n in nodes]
    keep = [-1] * len(nodes)
    order = postorder(cfg)
    order.reverse()
    inn, out = _solve(order, lambda n: n.pred, lambda n: n.succ, gen, keep)
    return Facts(bits, inn), Facts(bits, out)


def possibly_changed(cfg, copied_before, copied_after, unchanged_at_entry=()):
    """(changed_in, changed_out) per node id: the variables whose value may
    differ from a copy of it kept elsewhere (a frame), where node n copies
    the variables of mask `copied_before[n]` (by id) one way or the other
    before its own writes, and those of `copied_after[n]` after them: a
    variable is unchanged from a copy until it is written.  At the entry
    every variable has changed but those of `unchanged_at_entry` (keys)."""
    bits = cfg.bits
    nodes = cfg.nodes
    everything = (1 << len(bits.keys)) - 1
    gen = [bits.mask(n.writes) | bits.mask(n.defs) for n in nodes]
    keep = [-1] * len(nodes)
    for i, m in copied_before.items():
        keep[i] &= ~m
    for i, m in copied_after.items():
        gen[i] &= ~m
        keep[i] &= ~m
    gen[cfg.entry.id] = everything & ~bits.mask(unchanged_at_entry) & \
        ~copied_after.get(cfg.entry.id, 0)
    order = postorder(cfg)
    order.reverse()
    inn, out = _solve(order, lambda n: n.pred, lambda n: n.succ, gen, keep)
    return Facts(bits, inn), Facts(bits, out)
