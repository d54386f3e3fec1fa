"""cpc-check --fix: write the annotations that inference decides.

The checker (cpc_check.Checker) decides; this module writes.  For every
function declared in the analysed files or their user headers (never a
system header, never CPC's own headers):

  - a function that must be cooperative (the fixed point of `--infer`, an
    annotated root: entry point, primitive, spawned, stored in an annotated
    pointer) gets the annotation on each declaration that lacks it, which
    also mends declarations that disagree (`inconsistent-annotation`);
  - a function stored where a cooperative one is expected (an annotated
    slot, a table of handlers whose type became cooperative) gets it too;
  - an annotated function that the checker finds spurious (it calls no
    cooperative function, uses no continuation, and is no root) loses it on
    every declaration;
  - a cooperative function (annotated, or that inference decides must be)
    stored in a function pointer slot that is not annotated (a struct
    field, a variable, a parameter: `annotation-cast`) gets the slot
    annotated, so that the calls through it are cooperative
    and inference then reaches their callers -- unless the slot's value goes
    on to native code that cannot change (Checker.native_by_use).

Each edit inserts or removes the annotation word alone; every other byte
stays as it was.  An annotated slot makes the calls through it cooperative
and an annotated function changes what may be stored where, so cpc-check
parses and decides again after every round that wrote something, until a
round writes nothing: its report, and the exit status, are those of the
fixed files.
"""
import os
import re


DECLARATOR_RE = re.compile(rb'(?:[\s*(]|\b(?:const|volatile|restrict|__restrict)\b)*$')


def insertion_point(d, text):
    """Where the annotation word goes in the declaration at DeclPos d of
    `text`: before the declared name, or, when the name follows `*` or `(`
    (a pointer result, a function pointer), before the declarator's stars
    and parentheses, at the end of the specifiers it then binds to
    (`int coroutine_fn (*read)(int)`, `Coroutine coroutine_fn *self(void)`)."""
    if d.start is None or not d.start <= d.name <= len(text):
        return None
    before = text[d.start:d.name]
    if not before.rstrip().endswith((b'*', b'(')):
        return d.name
    m = DECLARATOR_RE.search(before)
    start = m.start() if m else len(before)
    while start < len(before) and before[start:start + 1].isspace():
        start += 1
    return d.start + start


class Fixer:
    def __init__(self, checker):
        self.ck = checker
        self.word = checker.coro_name
        self.inserts = {}      # file -> {offset}
        self.removals = {}     # file -> {(start, end)}

    # ------------------------------------------------------------ deciding

    def wanted(self, n):
        """Whether function node n must carry the annotation."""
        if n.root == 'native':
            return False
        if n.key in self.ck.stored_in_coro:
            return True                # stored where a cooperative function is expected
        if not n.local:
            return n.coro              # trusted as declared: only make them agree
        return n.inferred or (n.coro and (n.uses_cont or n.root is not None))

    def written(self, n):
        """Whether n's annotation is written in the files (not only in
        the model of settle())."""
        return n.coro if n.coro0 is None else n.coro0

    def editable(self, fname):
        if fname is None or not os.path.isfile(fname):
            return False
        if self.ck.cpc_header(fname):
            return False
        ck = self.ck
        if fname in ck.main_paths:
            # a file the front-end reads as written (masked to the same
            # length); one whose nested functions were lifted is not
            return ck.unit_lengths.get(fname) == len(ck.disk_text(fname))
        return True

    def decide(self):
        for n in self.ck.nodes.values():
            if n.kind != 'func':
                continue
            want = self.wanted(n)
            for (_loc, spelled, system, ident, d) in n.decl_locs:
                fname = ident[0]
                if system or not self.editable(fname):
                    continue
                if want and not spelled:
                    pos = insertion_point(d, self.ck.disk_text(fname))
                    if pos is not None:
                        self.inserts.setdefault(fname, set()).add(pos)
                elif not want and self.written(n) and spelled and n.local:
                    r = self.spelling_range(d, fname)
                    if r is not None:
                        self.removals.setdefault(fname, set()).add(r)
        slots = list(self.ck.slots_to_annotate)
        slots += [(n.slot, n.slot_at) for n in self.ck.nodes.values()
                  if n.kind == 'slot' and (n.inferred or n.coro)]
        for ident, d in slots:
            fname = d.file
            if ident in self.ck.native_slots or not self.editable(fname):
                continue
            pos = insertion_point(d, self.ck.disk_text(fname))
            if pos is not None:
                self.inserts.setdefault(fname, set()).add(pos)

    def spelling_range(self, d, fname):
        """The bytes of the annotation word (and the blank after it) in the
        declaration at DeclPos d: before the name, or just before the
        declaration (an annotation macro that expands to nothing lies outside
        Clang's extent)."""
        text = self.ck.disk_text(fname)
        if d.start is None:
            return None
        a, b = d.start, d.name
        pat = re.compile(rb'\b%s\b[ \t]*' % re.escape(self.word.encode()))
        m = pat.search(text, a, b)
        if m is None:
            lo = max(0, a - 256)
            pre = text[lo:a]
            cut = max(pre.rfind(b';'), pre.rfind(b'{'), pre.rfind(b'}'))
            start = lo + cut + 1
            found = list(pat.finditer(text, start, a))
            m = found[-1] if found else None
        if m is None:
            return None
        return m.start(), m.end()

    # ------------------------------------------------------------- writing

    def write(self):
        """Apply the edits; returns (added, removed, files changed)."""
        added = removed = 0
        files = sorted(set(self.inserts) | set(self.removals))
        for fname in files:
            text = self.ck.disk_text(fname)
            edits = [(p, p, self.word.encode() + b' ') for p in self.inserts.get(fname, ())]
            edits += [(a, b, b'') for (a, b) in self.removals.get(fname, ())]
            edits.sort(reverse=True)
            out = text
            for (a, b, s) in edits:
                out = out[:a] + s + out[b:]
            with open(fname, 'wb') as fh:
                fh.write(out)
            added += len(self.inserts.get(fname, ()))
            removed += len(self.removals.get(fname, ()))
        return added, removed, files


# ------------------------------------------------------------- settling


def settle(ck, rounds):
    """Decide, in the checker's model, what rounds of --fix would: take a
    round's decisions as written (the functions it annotates or strips,
    the slots it annotates), infer again, until nothing changes; one
    parse of the project instead of one a round.  The model is that of
    the first parse (every offset is in the text as read), so the edits
    of all the rounds are decided against that text, and written once;
    whatever the model does not see (a slot's typedef that other slots
    share, ...) the parse after the writing does, and --fix goes on.
    Returns the Fixer of the last round."""
    for n in ck.nodes.values():
        n.coro0 = n.coro
    for _ in range(rounds):
        fx = Fixer(ck)
        fx.decide()
        changed = False
        for n in ck.nodes.values():
            if n.kind == 'func' and n.local and n.root != 'native':
                w = fx.wanted(n)
                if w != n.coro and any(not system and fx.editable(ident[0])
                                       for (_l, _sp, system, ident, _d) in n.decl_locs):
                    n.coro = w
                    changed = True
            elif n.kind == 'slot' and n.inferred and not n.coro and \
                    n.slot not in ck.native_slots and fx.editable(n.slot_at.file):
                n.coro = True
                changed = True
        if not changed:
            return fx
        remodel(ck)
    return Fixer(ck)


def remodel(ck):
    """What a parse of the written annotations would find: roots of
    functions whose address is taken, functions stored in annotated
    slots; then inference again."""
    for n in ck.nodes.values():
        if n.kind != 'func':
            continue
        if n.coro and n.address and n.root is None:
            n.root = 'address'
        elif not n.coro and n.root == 'address':
            n.root = None
    for src, dst in ck.native_flows:
        if src[0] == 'func' and dst[0] == 'slot':
            s = ck.slot_node_at(dst[1])
            if s is not None and s.coro:
                ck.stored_in_coro.add(src[1])
    for n in ck.nodes.values():
        n.inferred = False
        n.why = None
    ck.infer()
