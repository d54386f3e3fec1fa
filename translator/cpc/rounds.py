"""Consecutive local passes run in rounds, one parse a round instead of one
a pass.

A pass declared `local` (pipeline.Pass) acts on each declaration of the main
file by that declaration's text alone: its edits of a declaration fall
within it or at its edges, and are the same whatever the passes did to the
other declarations (they do not change what it reads of them: their names
and types, the headers).  Then a pass need not wait for the parse of the
previous pass's output to act on the declarations that pass left as they
were: their text, and what the pass reads, is the same in both parses.

So a run of local passes goes in rounds.  Each declaration has the next
pass it must go through.  In a round, each pass in order acts (on the
round's unit, `Unit.scope`) on the declarations whose next pass it is and
that no pass has edited in this round; each of them then waits for the next
pass, and those it edited wait for the next round, whose parse gives their
new text.  The edits of the round are applied together (they do not
overlap: each lies within or at the edges of its declaration, which no
other pass of the round touched), and the new parse's declarations inherit
the state of the old ones they cover.  A pass with a fixed point acts again,
in the next round, on the declarations it edited (and those its edits
added), until it leaves each as it is.  When every declaration has been
through every pass, the text is the one the passes one after the other
would have written, byte for byte, with as many parses as the longest chain
of a declaration's edits, not one per pass that edits.

Invariant: the unit returned is a parse of the text that running the
passes one at a time (each on the parse of its predecessor's output)
gives.  When a round cannot keep it provably (an edit outside the
declarations its pass acted on, a declaration of the new parse covering
declarations in different states, or a pass's errors, which must name every
declaration at once), the passes run one at a time from the run's first
text (`sequential`).
"""
import bisect


class OneAtATime(Exception):
    """The rounds cannot keep their invariant: run the passes one at a time."""


def declarations(u):
    """The extents of the main file's declarations (not the preprocessor's
    entities), in order."""
    return sorted((c.extent.start.offset, c.extent.end.offset) for c in u.all_main_top()
                  if not c.kind.is_preprocessing())


def reach(ranges):
    """The furthest end of ranges[:i + 1], for each i (ranges sorted by
    start, some inside others: a struct and the variable it declares)."""
    out, far = [], -1
    for (_, e) in ranges:
        far = max(far, e)
        out.append(far)
    return out


def touching(ranges, far, a, b):
    """The indices of ranges (sorted by start; `far`: their reach) that
    overlap or touch [a, b]."""
    out = []
    i = bisect.bisect_right(ranges, (b, float('inf')))
    while i > 0 and far[i - 1] >= a:
        i -= 1
        if ranges[i][1] >= a:
            out.append(i)
    return out


class Rounds:
    def __init__(self, passes, run_edits, reparse, sequential, max_rounds):
        self.passes = passes
        # the rounds a fixed point may take (as many: the passes one at a
        # time tell whether it ends)
        self.max_rounds = max_rounds
        self.run_edits = run_edits      # (pass, unit) -> edits
        self.reparse = reparse          # (unit, edits) -> the parse of the edited text
        self.sequential = sequential    # (text) -> the unit after every pass, one at a time
        self.parses = 0

    def run(self, u):
        text0 = u.text
        try:
            return self._rounds(u)
        except OneAtATime:
            return self.sequential(text0 if self.parses else u)

    def _rounds(self, u):
        n = len(self.passes)
        ranges = declarations(u)
        state = [0] * len(ranges)           # each declaration's next pass
        edited_rounds = [0] * n         # the rounds in which each pass edited
        while True:
            edits = []
            edited = [False] * len(ranges)
            far = reach(ranges)
            for j, p in enumerate(self.passes):
                scope = {ranges[i] for i in range(len(ranges))
                         if state[i] == j and not edited[i]}
                if not scope:
                    continue
                u.scope = scope
                try:
                    mine = self.run_edits(p, u)
                except Exception as e:
                    from .frontend import Diags
                    if isinstance(e, Diags):
                        raise OneAtATime() from None
                    raise
                finally:
                    u.scope = None
                for i in range(len(ranges)):
                    if ranges[i] in scope:
                        state[i] = j + 1
                for (a, b, t) in mine:
                    hit = touching(ranges, far, a, b)
                    if not hit or any(ranges[i] not in scope for i in hit):
                        raise OneAtATime()
                    for i in hit:
                        edited[i] = True
                        if p.fixed_point:
                            state[i] = j        # (again on its output, next round)
                edits += mine
                if mine and p.fixed_point:
                    edited_rounds[j] += 1
                    if edited_rounds[j] >= self.max_rounds:
                        raise OneAtATime()      # (one at a time: whether it ends)
            if not edits:
                assert all(s == n for s in state)
                return u
            new = self.reparse(u, edits)
            self.parses += 1
            u = new
            ranges, state = self._carried(edits, ranges, state, u)

    @staticmethod
    def _carried(edits, ranges, state, u):
        """The new parse's declarations and their states: each the state of
        the old declarations it covers (their ranges moved by the edits,
        which they include)."""
        order = sorted(edits, key=lambda x: (x[0], x[1]))
        starts, shift = [], []          # per edit (sorted): its start, the shift after it
        total = 0
        for (a, b, t) in order:
            total += len(t.encode('utf-8', 'surrogateescape')) - (b - a)
            starts.append((a, b))
            shift.append(total)

        def moved(x, edits_up_to):
            """old offset x, after the edits of the first `edits_up_to`."""
            return x + (shift[edits_up_to - 1] if edits_up_to else 0)

        edits_far = reach(starts)
        old, old_state = [], []
        for (s, e), st in zip(ranges, state):
            hit = touching(starts, edits_far, s, e)
            s2 = min([s] + [starts[k][0] for k in hit])
            e2 = max([e] + [starts[k][1] for k in hit])
            before = bisect.bisect_left(starts, (s2, -1))
            upto = bisect.bisect_right(starts, (e2, float('inf')))
            old.append((moved(s2, before), moved(e2, upto)))
            old_state.append(st)
        # (moved in order: still sorted by start)
        old_far = reach(old)
        new_ranges = declarations(u)
        new_state = []
        for (s, e) in new_ranges:
            covered = {old_state[i] for i in touching(old, old_far, s, e)}
            if len(covered) != 1:
                raise OneAtATime()
            new_state.append(covered.pop())
        return new_ranges, new_state
