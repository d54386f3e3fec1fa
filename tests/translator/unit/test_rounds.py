"""rounds.py: the local passes run in rounds, one parse a round, and write
what they write one at a time."""
import pytest

from cpc import frontend as fe
from cpc import pipeline
from cpc import rounds

from helpers import HDR, PATH

# f: its cps call comes out of a macro (`macros` expands f), then is not in
# normal form (`normalize`); g: two locals named r (`rename`), then the same;
# h: `normalize` only.  One at a time: a parse after macros, rename and
# normalize each; in rounds, macros and rename edit f and g in the first
# round, normalize all three in the second.
THREE_FUNCTIONS = '''
cps int c(int x) { cpc_yield(); return x; }
#define CALL(x) c(x)
cps int f(int a) { return 1 + CALL(a); }
cps int g(int a) { int r = a; { int r = 2; a += r; } return 1 + c(a) + r; }
cps int h(int a) { return 2 + c(a); }
'''


def _parses(src, monkeypatch, **kwargs):
    """The parses of HDR + src after the first (the `nested` stage's)."""
    parses = []
    real = pipeline.parse

    def counted(*args, **kw):
        parses.append(1)
        return real(*args, **kw)
    monkeypatch.setattr(pipeline, 'parse', counted)
    pipeline.translate((HDR + src).encode(), PATH, **kwargs)
    return len(parses)


def test_passes_that_edit_different_functions_share_a_parse(monkeypatch):
    # (stopping after the last pass, the passes run one at a time)
    assert _parses(THREE_FUNCTIONS, monkeypatch, stop_after='boxing') == 3
    assert _parses(THREE_FUNCTIONS, monkeypatch) == 2


# spawns nested in two levels (spawn's fixed point: its functions are
# outlined again), a linked statement, a cleanup variable, a VLA, a boxed
# variable, a local struct, sizeof of a cps call, shadowed locals: every
# pass of the rounds edits, in chains of different lengths
EVERY_PASS = '''
#include <stdlib.h>
cps int c(int x) { cpc_yield(); return x; }
static void done(int *p) { (void)p; }
#define TWICE(x) (c(x) + c(x))
cps int macro(int a) { return TWICE(a); }
cps int unevaluated(void) { return (int)sizeof(c(1)) + c(2); }
cps int local_type(int a) { struct pt { int x, y; } p = { a, 2 }; cpc_yield(); return p.x + p.y; }
cps void spawner(int n) {
    cpc_spawn { int k = n; cpc_spawn { c(k); c(k + 1); } c(k); }
}
cps int linked(int n) { cpc_detached { n = c(n); } return n; }
cps int shadow(int r) { { int r = 3; c(r); } return r; }
cps int vla(int n) { int v[n]; v[0] = n; c(1); return v[0]; }
cps int cleanup(int n) { int x __attribute__((cleanup(done))) = n; c(1); return x; }
cps int boxed(int n) { int *p = &n; c(1); return *p; }
int main(void) { cpc_spawn spawner(2); cpc_main_loop(); return 0; }
'''


@pytest.mark.parametrize('dataflow', ['lifting', 'environments'])
def test_the_rounds_write_what_the_passes_one_at_a_time_write(dataflow):
    src = (HDR + EVERY_PASS).encode()
    assert pipeline.translate(src, PATH, dataflow=dataflow) == \
        pipeline.translate(src, PATH, dataflow=dataflow, check_invariants=True)


def test_checking_the_invariants_checks_that_the_rounds_write_the_same(monkeypatch):
    # rounds that forget their last pass
    real = pipeline.run_rounds
    monkeypatch.setattr(pipeline, 'run_rounds', lambda passes, u, ctx: real(passes[:-1], u, ctx))
    src = (HDR + EVERY_PASS).encode()
    pipeline.translate(src, PATH, stop_after='boxing', check_invariants=True)  # (no rounds)
    with pytest.raises(pipeline.InvariantBroken) as e:
        pipeline.translate(src, PATH, check_invariants=True)
    assert e.value.diags[0].msg.startswith(
        'internal error: the rounds of the passes from `macros` to `boxing` wrote another '
        'text than the passes one at a time (line ')


def test_every_function_s_errors_are_reported_when_a_round_finds_one():
    # (linked finds h's error in the first round, while f waits for the
    # parse of its macro expansion: the passes then run one at a time, and
    # report both, as they do)
    src = HDR + '''
cps int c(int x) { cpc_yield(); return x; }
#define CALL(x) c(x)
cps int f(int n) { while (n) { cpc_detached { CALL(n); break; } } return n; }
cps int h(int n) { while (n) { cpc_detached { c(n); break; } } return n; }
'''
    with pytest.raises(fe.Diags) as e:
        pipeline.translate(src.encode(), PATH)
    assert [(d.line, d.msg) for d in e.value.diags] == [
        (5, '`break` out of a `cpc_linked` statement (in `f`)'),
        (6, '`break` out of a `cpc_linked` statement (in `h`)')]


def test_a_fixed_point_that_does_not_end_in_rounds_is_an_error(monkeypatch):
    monkeypatch.setattr(pipeline, 'MAX_ROUNDS', 1)
    with pytest.raises(fe.Diags) as e:
        pipeline.translate((HDR + 'cps void g(int);\nint main(void) { int x = 1; '
                            'cpc_spawn { cpc_spawn { g(x); g(x); } } return 0; }\n').encode(),
                           PATH)
    assert e.value.diags[0].msg == 'spawned statements are nested too deeply to be outlined'


class _Edits:
    """A local pass that returns the given edits once (then none)."""
    fixed_point = False

    def __init__(self, edits):
        self.edits = edits


def _run(passes, src):
    u = fe.parse(src.encode(), PATH)
    sequential = []

    def run_edits(p, unit):
        e, p.edits = p.edits, []
        return e

    def reparse(old, edits):
        from cpc import rewrite as rw
        return fe.parse(rw.apply(old.text, edits), PATH)

    def one_at_a_time(start):
        sequential.append(start)
        return 'one at a time'
    return rounds.Rounds(passes, run_edits, reparse, one_at_a_time, 8).run(u), sequential


def test_an_edit_outside_the_declarations_its_pass_acted_on_stops_the_rounds():
    src = 'int f(void) { return 1; }\nint g(void) { return 2; }\n'
    # the first pass edits f; the second, acting on g only, edits f too
    first = _Edits([(src.index('1'), src.index('1') + 1, '3')])
    second = _Edits([(src.index('2'), src.index('2') + 1, '4'),
                     (src.index('return 1'), src.index('return 1'), '(void)0; ')])
    result, sequential = _run([first, second], src)
    assert result == 'one at a time'
    assert len(sequential) == 1 and sequential[0].text == src.encode()


def test_edits_of_different_declarations_are_applied_together():
    src = 'int f(void) { return 1; }\nint g(void) { return 2; }\n'
    first = _Edits([(src.index('1'), src.index('1') + 1, '3')])
    second = _Edits([(src.index('2'), src.index('2') + 1, '4')])
    result, sequential = _run([first, second], src)
    assert sequential == []
    assert result.text == b'int f(void) { return 3; }\nint g(void) { return 4; }\n'
