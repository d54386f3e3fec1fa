"""The pipeline: CPC source text in, C source text out, as declared data.

`PRE_PARSE` lists text-to-text stages that run before Clang first parses the
file (for constructs Clang cannot parse); `PASSES` lists the passes that run
on parsed units.  A pass maps a `Unit` to edits (byte-range replacements,
`rewrite.apply`); the edited text is parsed again, so every pass sees a plain
AST of CPC, and `#line` directives keep locations on the original file.  A
pass with `fixed_point` runs again on its own output until it has nothing to
do (one nesting level per round).  A pass's `check` is its invariant as code:
a function from the unit it produced to diagnostics (none when the invariant
holds), run after the pass with `check_invariants`.  The emitter's own
requirements (`EMIT_REQUIRES`) are checked on the unit it receives.

`translate()` is: pre-parse stages, parse, the passes in order, emit.
"""
import contextlib
from dataclasses import dataclass, field
import gc
import re
import resource
import time
from typing import Callable, Optional

from . import depth
from . import frontend as fe
from . import rewrite as rw
from . import reparse
from . import rounds
from . import clang_limits
from . import conditionals
from . import cps_free
from . import cps_spelling
from . import headers
from . import nested
from . import consistency
from . import attributes
from . import implicit_int
from . import reserved
from . import typecheck
from . import macros
from . import unevaluated
from . import types
from . import spawn
from . import linked
from . import rename
from . import vlas
from . import cleanup
from . import normalize
from . import boxing
from . import emit
from .emit import requires as emitter_requirements

MAX_ROUNDS = 64          # rounds of a fixed-point pass before it gives up


@dataclass
class Context:
    """What a translation carries from pass to pass besides the unit."""
    path: str
    args: list
    dataflow: str = 'lifting'          # 'lifting', 'frame' or 'environments'
    info: Optional[dict] = None        # receives 'headers': the inlined headers
    state: dict = field(default_factory=dict)   # a pass's own state across rounds
    # (text, unit): a text stage that parsed the text it returns leaves the
    # unit here, and the first parse is that unit (parsing again would
    # give the same)
    parsed: Optional[tuple] = None
    # the C compiler that compiles the output, with its flags (conditionals.py
    # asks it which branches of the file's #if it takes); None: not known
    cc: Optional[list] = None
    # stage name (or 'parse') -> CPU seconds spent in it, when measured
    timings: Optional[dict] = None
    # the headers are those of the output (conditionals and headers are
    # done): a new text parses the main file again, not the headers
    # (reparse.Reparser, made at the first such parse)
    headers_fixed: bool = False
    reparser: Optional[object] = None

    def charge(self, name, since):
        """Add the CPU time since `since` (cpu_now()) to stage `name`,
        when timings are measured."""
        if self.timings is not None:
            self.timings[name] = self.timings.get(name, 0.0) + cpu_now() - since


def cpu_now():
    """CPU seconds of this process and of the children it waited for (the
    C compiler that `conditionals` runs)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + r.ru_utime + r.ru_stime


@dataclass(frozen=True)
class TextStage:
    """A text-to-text stage that runs before the first parse."""
    name: str
    run: Callable                      # (text: bytes, ctx) -> bytes
    doc: str


@dataclass(frozen=True)
class Pass:
    """A pass on parsed units: `run(unit, ctx)` returns edits ([] for a
    pass that only checks and raises diagnostics)."""
    name: str
    module: str                        # where its work is done (for the documentation)
    run: Callable                      # (Unit, Context) -> [(a, b, text)]
    doc: str
    fixed_point: bool = False
    # (Unit, Context) -> [Diag]: its invariant on its output; None for a pass that
    # only diagnoses (its output is its input, and its diagnosis is its check)
    check: Optional[Callable] = None
    too_deep: str = ''                 # the error when a fixed point takes more than MAX_ROUNDS
    # it acts on each declaration of the main file by its text alone
    # (rounds.py): consecutive local passes share their parses
    local: bool = False

    @property
    def diagnoses_only(self):
        """The pass changes nothing (it has no check of its own): after its
        errors, the passes that only diagnose still run on the same unit,
        so that one run reports the errors of all of them."""
        return self.check is None


# --------------------------------------------------------------------------
# The passes' entry points, in the shape the pipeline calls

def inline_headers(u, ctx):
    inlined = ctx.state.setdefault('headers', set())
    edits = headers.inline(u, inlined)
    if ctx.info is not None:
        names = ctx.info.setdefault('headers', [])
        for (a, b, t) in edits:
            m = re.match(r'#line 1 "((?:[^"\\]|\\.)*)"\n', t)
            if m:
                name = m.group(1).replace('\\"', '"').replace('\\\\', '\\')
                if name not in names:
                    names.append(name)
    return edits


def diagnostics_only(check):
    """A pass that reports errors and changes nothing."""
    def run(u, ctx):
        check(u)
        return []
    return run


def boxing_pass(u, ctx):
    return boxing.box(u, environments=(ctx.dataflow == 'environments'))


def unit_only(fn):
    """A pass or check that needs the unit alone."""
    return lambda u, ctx: fn(u)


# Text stages before the first parse, in order.  A stage is
#     TextStage('name', module.function, doc='what it does')
# where function(text: bytes, ctx: Context) -> bytes keeps the line count
# (or adds #line directives) so that messages still point into the file.
PRE_PARSE = [
    TextStage('nested', nested.stage,
              doc='nested (GCC inner) functions are lifted to file scope, with closures'),
]

PASSES = [
    Pass('conditionals', 'conditionals.py', lambda u, ctx: conditionals.pin(u, ctx.cc),
         fixed_point=True, check=lambda u, ctx: conditionals.check(u, ctx.cc),
         doc='the branches of #if that the C compiler takes are the ones parsed',
         too_deep='conditional directives are nested too deeply'),
    Pass('headers', 'headers.py', inline_headers, fixed_point=True, check=unit_only(headers.check),
         doc='inline the headers that define cps functions, one level per round',
         too_deep='headers defining cps functions include each other too deeply to be inlined'),
    Pass('attributes', 'attributes.py', unit_only(attributes.move),
         check=unit_only(attributes.check),
         doc='attributes after the declarator of a function definition (which gcc rejects '
             'there) move in front of it'),
    Pass('consistency', 'consistency.py', diagnostics_only(consistency.check_consistency),
         doc='every declaration of a function agrees on cps-ness'),
    Pass('reserved', 'reserved.py', unit_only(reserved.rename), check=unit_only(reserved.check),
         doc='names of the program spelt like generated ones (F__frame, ...) are renamed'),
    Pass('typecheck', 'typecheck.py', diagnostics_only(typecheck.check),
         doc='cps and native function types do not mix'),
    Pass('implicit_int', 'implicit_int.py', unit_only(implicit_int.write_int),
         check=unit_only(implicit_int.check),
         doc='`cps` written in place of a type specifier (`cps *p;`) becomes `int`'),
    Pass('macros', 'macros.py', unit_only(macros.expand_macros),
         check=unit_only(macros.check_expanded),
         local=True,
         doc='functions whose rewritten nodes come out of macros are macro-expanded'),
    Pass('unevaluated', 'unevaluated.py', unit_only(unevaluated.replace_calls),
         check=unit_only(unevaluated.check),
         local=True,
         doc='cps calls in operands never evaluated (sizeof, _Alignof, typeof, `_Generic`\'s '
             'controlling expression and unselectable associations, the branch '
             '`__builtin_choose_expr` does not choose, `__builtin_constant_p`...) become '
             'values of their type'),
    Pass('types', 'types.py', unit_only(types.hoist), check=unit_only(types.check),
         local=True,
         doc='struct and union types defined in cps functions (and spawning ones) move to file scope'),
    Pass('spawn', 'spawn.py', unit_only(spawn.outline), fixed_point=True,
         check=unit_only(spawn.check), local=True,
         doc='spawned statements are outlined into cps functions, one nesting level per round',
         too_deep='spawned statements are nested too deeply to be outlined'),
    Pass('linked', 'linked.py', unit_only(linked.link), check=unit_only(linked.check),
         local=True,
         doc='linked, detached and attached statements become cpc_link calls'),
    Pass('rename', 'rename.py', unit_only(rename.rename_shadows),
         check=unit_only(rename.check_renamed),
         local=True,
         doc='locals of a cps function that share a name are renamed'),
    Pass('vlas', 'vlas.py', unit_only(vlas.move_to_heap),
         check=unit_only(vlas.check),
         local=True,
         doc='variable-length arrays in scope at a cps call move to the heap, freed by a '
             'cleanup attribute at each exit of their scope'),
    Pass('cleanup', 'cleanup.py', unit_only(cleanup.lower), check=unit_only(cleanup.check),
         local=True,
         doc='cleanup attributes of variables in scope at a cps call become explicit calls '
             'at each exit of their scope'),
    Pass('normalize', 'normalize.py', unit_only(normalize.normalize),
         check=unit_only(normalize.check),
         local=True,
         doc='every cps call becomes a statement in normal form'),
    Pass('boxing', 'boxing.py', boxing_pass, check=unit_only(boxing.check),
         local=True,
         doc='variables whose address may be retained move to a heap environment'),
]


# After this pass, a unit without cps code (cps_free.py) skips the rest:
# its #if branches are those gcc takes and the headers defining cps
# functions are inlined, so what the later passes see is what gcc compiles.
CPS_FREE_AFTER = 'headers'
CPS_FREE_CHECK = 'cps-free check'      # its name in timings


def cps_code(u, ctx):
    t0 = cpu_now()
    try:
        return cps_free.has_cps_code(u)
    finally:
        ctx.charge(CPS_FREE_CHECK, t0)


def emit_requires(u, ctx):
    """What the emitter relies on: no linked statement, every cps call in
    normal form, no retained address in scope at a cps call (the invariants
    of those passes, still true after the passes that followed them), and
    its own requirements on spawns and frames."""
    out = []
    for check in (linked.check, normalize.check, boxing.check,
                  emitter_requirements.check):
        out += check(u)
    return out


EMIT = Pass('emit', 'emit/', lambda u, ctx: emit.emit(u, resident=(ctx.dataflow == 'frame')),
            check=emit_requires,
            doc='split, lift and write the C of docs/abi.md')


def describe():
    """The pipeline as docs/translator.md shows it (a test keeps them equal)."""
    lines = ['| # | stage | module | what it does | fixed point | local (rounds) | '
             'invariant checked |',
             '|---|---|---|---|---|---|---|']
    n = 0
    for s in PRE_PARSE:
        n += 1
        lines.append('| %d | `%s` (text, before parsing) | %s | %s | | | |' % (
            n, s.name, s.run.__module__.rsplit('.', 1)[-1] + '.py', s.doc))
    for p in PASSES + [EMIT]:
        n += 1
        lines.append('| %d | `%s` | %s | %s | %s | %s | %s |' % (
            n, p.name, p.module, p.doc, 'yes' if p.fixed_point else '',
            'yes' if p.local else '',
            'on its input' if p is EMIT else ('yes' if p.check else
                                              'diagnoses only: changes nothing')))
    return '\n'.join(lines) + '\n'


def stage_names():
    """The names --cpc-stop-after accepts, in pipeline order."""
    return [s.name for s in PRE_PARSE] + [p.name for p in PASSES]


# --------------------------------------------------------------------------
# Running it

def parse(text, path, args, reparser=None):
    """The unit of `text`: a full parse, or `reparser`'s of its main file."""
    try:
        if reparser is not None:
            return reparser.parse(text, path)
        return fe.parse(text, path, args)
    except fe.Diags as e:
        nested.explain_unlifted(e.diags)
        raise


def first_parse(text, ctx):
    """The unit of `text` after the text stages."""
    parsed, ctx.parsed = ctx.parsed, None
    if parsed is not None and parsed[0] is text:
        return parsed[1]
    t0 = cpu_now()
    try:
        return parse(text, ctx.path, ctx.args)
    finally:
        ctx.charge('parse', t0)


def parse_again(text, ctx, carried):
    """A parse of `text`, the main file's text after edits (in place when
    the headers' preamble is made), charged to `parse`; it carries what the
    passes before it left in `carried`."""
    t0 = cpu_now()
    try:
        u = parse(text, ctx.path, ctx.args, ctx.reparser)
    finally:
        ctx.charge('parse', t0)
    u.carried = carried
    return u


def step(u, edits, ctx):
    if not edits:
        return u
    t0 = cpu_now()
    try:
        text = rw.apply(u.text, edits)
        if ctx.headers_fixed and ctx.reparser is None:
            if reparse.Reparser.worth(u):
                ctx.reparser = reparse.Reparser(u, ctx.args)
                outlives_the_parses(u)
            else:
                ctx.headers_fixed = False       # (asked once)
        new = parse(text, u.path, ctx.args, ctx.reparser)
    finally:
        ctx.charge('parse', t0)
    new.carried = u.carried
    return new


def run_edits(p, u, ctx):
    """p's edits of u (its CPU time charged to it)."""
    t0 = cpu_now()
    try:
        return p.run(u, ctx)
    finally:
        ctx.charge(p.name, t0)


class InvariantBroken(fe.Diags):
    """A pass's output breaks its invariant (a translator bug)."""


def verify(p, u, ctx, what):
    """Raise InvariantBroken when p's check fails on u; `what` names the
    broken promise in the message."""
    errs = p.check(u, ctx)
    if errs:
        for d in errs:
            d.msg = 'internal error: %s: %s' % (what, d.msg)
        raise InvariantBroken(errs)


def run_pass(p, u, ctx):
    if not p.fixed_point:
        return step(u, run_edits(p, u, ctx), ctx)
    given = u
    for _ in range(MAX_ROUNDS):
        edits = run_edits(p, u, ctx)
        if not edits:
            return u
        before, u = u, step(u, edits, ctx)
        if before is not given:     # (the caller's unit is the caller's to release)
            before.release()
        before = None
        gc.collect()        # the rounds before (see collected_per_parse)
    raise fe.Diags([fe.Diag(p.too_deep, u.path, 1, 1)])


@contextlib.contextmanager
def collected_per_parse():
    """The garbage collector runs when a parse is dropped, not by allocation
    counts.  A parse's cursors and analyses (hundreds of thousands of small
    objects, in cycles: a cursor's memo holds the Func that holds the
    cursor) live exactly as long as the unit, so the automatic collections,
    which go through all of them again and again while the passes allocate,
    find nothing to free but cost a quarter of the translation.  Whoever
    replaces the unit by a new parse calls the old one's `release()`, which
    empties its cursors (most of it is then freed at once, without the
    collector going through it), then `gc.collect()` for the cycles left
    (memory stays at about one parse, and is reused while it is warm:
    deferring the collection further was slower).  The objects that exist
    when the translation starts (the translator's modules, its tables, a
    caller's) are frozen for its duration (gc.freeze): they outlive it, so
    those collections pass them by.  The collector's state is restored on
    the way out (nested uses: the outermost one)."""
    global _collecting
    was_enabled = gc.isenabled()
    gc.disable()
    outermost = not _collecting
    if outermost:
        gc.freeze()
        _collecting = True
    try:
        yield
    finally:
        if outermost:
            _collecting = False
            gc.unfreeze()
        if was_enabled:
            gc.enable()


_collecting = False     # inside collected_per_parse()


def outlives_the_parses(u):
    """Unit u (its listing: hundreds of thousands of objects with the
    headers') lives until the translation ends (a Reparser's base): the
    collections after each parse pass it by (gc.freeze, undone with the
    others when collected_per_parse ends).  It is frozen without a
    collection first: that would go through the whole listing once more
    (0.03 s on QEMU's block.c) to free a few thousand objects (what the
    passes derived from its code, released), which stay until the
    translation ends instead."""
    if _collecting:
        gc.freeze()


def text_of(u):
    return u.text.decode('utf-8', 'surrogateescape')


def find(name):
    """The pass called `name` ('emit' included)."""
    for p in PASSES + [EMIT]:
        if p.name == name:
            return p
    raise KeyError(name)


def start(text, path, args=(), dataflow='lifting', info=None):
    """The pre-parse stages and the first parse: (unit, context)."""
    ctx = Context(path=path, args=list(args), dataflow=dataflow, info=info)
    if isinstance(text, str):
        text = text.encode('utf-8', 'surrogateescape')
    for s in PRE_PARSE:
        text = s.run(text, ctx)
    return first_parse(text, ctx), ctx


TOO_DEEP = ('the program nests too deeply for the translator (more than %d levels of '
            'calls and statements); split the deepest function or expression'
            % depth.RECURSION_LIMIT)


def depth_safe(path_arg):
    """The function with room for deeply nested programs (depth.py); a
    program deeper still is an error on its file (positional argument
    `path_arg`)."""
    def wrap(fn):
        deep_fn = depth.deep(fn)

        def run(*args, **kwargs):
            try:
                return deep_fn(*args, **kwargs)
            except depth.TooDeep:
                path = kwargs.get('path', args[path_arg] if len(args) > path_arg else None)
                raise fe.Diags([fe.Diag(TOO_DEEP, path, 1, 1)]) from None
        run.__doc__ = fn.__doc__
        run.__name__ = fn.__name__
        return run
    return wrap


@depth_safe(path_arg=2)
def run_until(name, text, path, args=(), dataflow='lifting'):
    """The unit that pass `name` receives: (unit, context) after every pass
    before it (for testing one pass alone)."""
    u, ctx = start(text, path, args, dataflow)
    for p in PASSES:
        if p.name == name:
            break
        u = run_pass(p, u, ctx)
    return u, ctx


@depth_safe(path_arg=1)
def translate(text, path, args=(), stop_after=None, dataflow='lifting', info=None,
              check_invariants=False, cc=None, timings=None):
    """Translate CPC `text` (bytes) of file `path`; returns C text, or the
    CPC text after stage `stop_after` (a name of stage_names()).  With
    dataflow='environments' every variable live across a cps call stays in
    the function's heap environment (eCPC's variant) instead of being lifted
    into frames.  `info` (a dict), when given, receives 'headers': the
    headers inlined because they define cps functions.  With
    `check_invariants` every pass's invariant is checked on its output and
    the first one broken raises InvariantBroken at the place it fails.
    `cc`, the command (with its flags) that compiles the output, lets the
    front-end take the branches of conditional directives that it takes.
    `timings` (a dict), when given, receives the CPU seconds spent in each
    stage by name, parsing (`parse`) and the checks apart."""
    if stop_after is not None and stop_after not in stage_names():
        raise ValueError('unknown pass %r' % stop_after)
    ctx = Context(path=path, args=list(args), dataflow=dataflow, info=info, cc=cc,
                  timings=timings)
    if isinstance(text, str):
        text = text.encode('utf-8', 'surrogateescape')
    given = text
    with collected_per_parse(), cps_spelling.headers_fixed():
        try:
            for s in PRE_PARSE:
                t0 = cpu_now()
                text = s.run(text, ctx)
                ctx.charge(s.name, t0)
                if stop_after == s.name:
                    return text.decode('utf-8', 'surrogateescape')
            u = first_parse(text, ctx)
        except fe.Diags as e:
            clang_limits.explain(e, given, path, cc)
            e.diags = fe.in_order(e.diags)
            raise
        try:
            return run_passes(u, ctx, stop_after, check_invariants)
        except fe.Diags as e:
            e.diags = fe.in_order(e.diags)
            raise


def run_passes(u, ctx, stop_after, check_invariants):
    """The passes and the emitter on the first unit u (translate's).  The
    local passes that follow each other run in rounds (rounds.py), unless
    the translation stops after a pass or checks each pass's invariant on
    its output: then each pass's output is parsed, as declared, and with
    the checks the rounds run too, beside, and must write the same text
    (rounds.py's invariant)."""
    errors = fe.Collected()
    grouped = stop_after is None and not check_invariants
    with collected_per_parse():
        done = 0            # the passes before PASSES[done] have run
        written = {}        # the last pass of a run of local passes -> its rounds' text
        for i, p in enumerate(PASSES):
            if i < done:
                continue
            done = i + 1
            if p.diagnoses_only:
                with errors.part():
                    run_pass(p, u, ctx)
            elif errors.diags:
                continue        # (it needs a program without errors)
            else:
                before = u
                end = local_run(i)
                if grouped and end > i + 1:
                    done = end
                    u = run_rounds(PASSES[i:end], u, ctx)
                else:
                    if check_invariants and stop_after is None and end > i + 1:
                        u, written[end - 1] = rounds_beside(PASSES[i:end], u, ctx)
                    u = run_pass(p, u, ctx)
                if u is not before:
                    before.release()
                    before = None
                    gc.collect()    # the unit before the pass (see collected_per_parse)
                if check_invariants and p.check is not None:
                    verify(p, u, ctx, 'pass `%s` broke its invariant' % p.name)
                if written.get(i) is not None:
                    same_as_rounds(u, written[i], PASSES[local_start(i)], p)
            if stop_after == p.name:
                errors.raise_any()
                return text_of(u)
            if p.name == CPS_FREE_AFTER:
                if not cps_code(u, ctx):
                    # no later pass has anything to do (cps_free.py)
                    errors.raise_any()
                    return text_of(u) if stop_after is not None else cps_free.verbatim(u)
                ctx.headers_fixed = True
        errors.raise_any()
        if check_invariants:
            verify(EMIT, u, ctx, 'the input of the emitter lacks what it requires')
        return run_edits(EMIT, u, ctx)


def local_run(i):
    """The end of the run of local passes that starts at PASSES[i] (i + 1
    when PASSES[i] is not local or does not start the run)."""
    if not PASSES[i].local or (i > 0 and PASSES[i - 1].local):
        return i + 1
    end = i
    while end < len(PASSES) and PASSES[end].local:
        end += 1
    return end


def local_start(i):
    """The first pass of the run of local passes that PASSES[i] is in."""
    while i > 0 and PASSES[i - 1].local:
        i -= 1
    return i


def rounds_beside(passes, u, ctx):
    """(a parse of u's text, the text the rounds of `passes` write from u,
    None when they find errors: the passes one at a time find them too)."""
    text = u.text
    try:
        r = run_rounds(passes, u, ctx)
        written = r.text
        if r is not u:
            r.release()
    except fe.Diags:
        written = None
    r = None
    gc.collect()
    return parse_again(text, ctx, u.carried), written


def same_as_rounds(u, written, first, last):
    """Raise InvariantBroken unless u's text, that of the passes from
    `first` to `last` one at a time, is `written`, their rounds'."""
    if u.text == written:
        return
    a, b = u.text.split(b'\n'), written.split(b'\n')
    line = next((n for n, (x, y) in enumerate(zip(a, b), 1) if x != y), min(len(a), len(b)) + 1)
    raise InvariantBroken([fe.Diag(
        'internal error: the rounds of the passes from `%s` to `%s` wrote another text than '
        'the passes one at a time (line %d of their output)' % (first.name, last.name, line),
        u.path, 1, 1)])


def run_rounds(passes, u, ctx):
    """Local `passes` on u, in rounds (rounds.py): the unit after the last
    of them."""
    given = [u]

    def reparse(old, edits):
        new = step(old, edits, ctx)
        # Every unit before the new one is done with, the caller's too (the
        # rounds go on from the new one, or from the text; the caller reads
        # no more than its text and `carried`, which release() leaves): were
        # the caller's kept until the rounds end, each collection after a
        # later round would go through all of its listing again for nothing
        # (a third of the objects gen5k's collections went through).
        old.release()
        gc.collect()        # (see collected_per_parse)
        return new

    def one_at_a_time(start):
        """The passes one after the other from `start`: the run's first
        unit, or its text when a round has parsed since."""
        if isinstance(start, bytes):
            start = parse_again(start, ctx, u.carried)
        for p in passes:
            before = start
            start = run_pass(p, start, ctx)
            if start is not before and before is not given[0]:
                before.release()
                gc.collect()
        return start

    return rounds.Rounds(passes, lambda p, unit: run_edits(p, unit, ctx), reparse,
                         one_at_a_time, MAX_ROUNDS).run(u)
