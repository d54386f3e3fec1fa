"""Lambda-lifting: what each resume point saves.

Invariant: `frame_vars(func, cfg, site)` is the list of local variables
(parameters included) that are live after the call of `site` (read on some
path before being overwritten), possibly initialised at the call (assigned
on some path from the entry, the call's own arguments included: they are
evaluated before it), and in scope at the call; in declaration order.
Only these are copied into the frame and restored at the resume point: a
dead or never-initialised variable is never lifted.  Lifting by copy is
correct because boxing left no variable whose address is retained in scope
at a cps call ("Continuation-Passing C", section 6: docs/references.md).

`stored(sites, site_vars, fixed)`: what each call site copies into the
frame: the variables its resume point restores, less those the frame
already holds on every path to the call (the last thing that happened to
them was a store or a restore, or they are `fixed`, stored at entry).  A
variable written since by the program, or through a pointer that only
lives between two calls (an address taken counts as a write), is stored.
"""
from .. import frontend as fe
from ..analysis.dataflow import liveness, possibly_changed, possibly_initialised
from ..analysis.syntax import callee_of
from .. import ctype


class Lifting:
    def __init__(self, func, cfg):
        self.func = func
        self.cfg = cfg
        self.live_in, self.live_out = liveness(cfg)
        _, self.init_out = possibly_initialised(cfg)
        # per function, computed once (a large function has thousands of
        # sites, each with hundreds of variables): the variables as bits,
        # each one's place in a frame, those already checked for a VLA
        self._var_bits = None
        self._rank = None
        self._checked = 0
        self.saved = {}         # {resume point index: frame_vars() as bits}

    def _ranks(self):
        """{key: place in a frame}: parameters first, then by declaration."""
        vs = self.func.vars
        return {k: i for i, k in enumerate(sorted(
            vs, key=lambda k: (not vs[k].is_param, vs[k].cursor.location.offset)))}

    def frame_vars(self, site):
        return self.vars_of(self.frame_mask(site))

    def vars_of(self, m):
        """The variables of mask m, in their order in a frame."""
        vars_, rank = self.func.vars, self._rank.__getitem__
        return [vars_[k] for k in sorted(self.cfg.bits.ordered(m), key=rank)]

    def frame_mask(self, site):
        """frame_vars(site) as bits."""
        r = site.resume_node
        c = site.call_node
        bits = self.cfg.bits
        live_after = self.live_in.masks[r.id]
        live = live_after & ~bits.mask(r.defs) | (bits.mask(r.uses) & live_after)
        if self._var_bits is None:
            self._var_bits = bits.mask(self.func.vars)
            self._rank = self._ranks()
        # after the call node: what its arguments assign is set when the
        # call suspends (`f(i = 1); return i;` keeps i); kept as bits for
        # stored() and the table of dead variables
        m = self.saved[site.index] = \
            live & self.init_out.masks[c.id] & site.scope_mask & self._var_bits
        vars_, rank = self.func.vars, self._rank.__getitem__
        new = m & ~self._checked
        if new:
            # (each variable's type looked at once: at the first site that
            # saves it)
            self._checked |= new
            for k in sorted(bits.ordered(new), key=rank):
                v = vars_[k]
                if ctype.is_vla(v.type):
                    raise fe.Diags([self.func.u.diag(
                        site.call, 'variable-length array `%s` is live across the cps '
                        'call to `%s`' % (v.name, callee_of(site.call).spelling or '?'))])
        return m

    def stored(self, sites, site_vars, fixed):
        """{resume point index: keys of the variables its call site stores}
        (module docstring)."""
        bits = self.cfg.bits
        before, after, saves = {}, {}, {}
        for site in sites:
            m = saves[site.index] = self.saved[site.index] if site.index in self.saved \
                else bits.mask(v.key for v in site_vars[site.index])
            c, r = site.call_node.id, site.resume_node.id
            after[c] = after.get(c, 0) | m          # stored after the arguments
            before[r] = before.get(r, 0) | m        # restored before the result
        changed, _ = possibly_changed(self.cfg, before, after, fixed)
        out = {}
        for site in sites:
            c = site.call_node
            m = changed.masks[c.id] | bits.mask(c.writes) | bits.mask(c.defs)
            # (a few names out of the set: it may hold every variable)
            out[site.index] = bits.keys_of(m & saves[site.index])
        return out
