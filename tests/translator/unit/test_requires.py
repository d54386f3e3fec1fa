"""requires (emit/requires.py): what the emitter requires of its input
beyond normal form and boxing: spawns of cps calls, distinct names in a
frame."""

from cpc import pipeline
from cpc.emit import requires
from helpers import before
from cpc import frontend as fe
from helpers import HDR, PATH, before


def test_the_input_the_passes_give_the_emitter_has_what_it_requires():
    u, _ = before('emit', 'cps int g(int);\nint main(void) { int x = 1; '
                  'cpc_spawn { x = g(x); g(x); } return 0; }\n'
                  'cps int f(int n) { { int a = g(n); n += a; } { int a = g(n); n += a; } '
                  'return n; }\n')
    assert requires.check(u) == []


def test_a_spawned_block_is_not_what_the_emitter_takes():
    u, _ = before('spawn', 'cps void g(int);\nint main(void) {\n  int x = 1;\n'
                  '  cpc_spawn { g(x); }\n  return 0;\n}\n')
    assert [(d.line, d.msg) for d in requires.check(u)] == [
        (5, 'a spawned statement of `main` is not a call of a cps function')]


def test_two_frame_variables_of_one_name_are_reported(monkeypatch):
    # what `rename` makes impossible: without it, both `a` are live across a call
    monkeypatch.setattr(pipeline, 'PASSES', [p for p in pipeline.PASSES if p.name != 'rename'])
    u, _ = before('emit', 'cps int g(int);\ncps int f(int n) {\n'
                  '  { int a = g(n); n += a; g(n); n += a; }\n'
                  '  { int a = g(n); n += a; g(n); n += a; }\n  return n;\n}\n')
    assert [(d.line, d.msg) for d in requires.check(u)] == [
        (5, 'two variables of the frame of `f` are named `a`')]


def problems(src):
    u = fe.parse((HDR + src).encode(), PATH)
    return [(d.line, d.msg) for d in requires.check(u)]


def test_a_spawned_statement_that_is_not_a_call_is_reported():
    assert problems('cps void f(void) {\n    cpc_spawn { cpc_yield(); }\n}\n') == \
        [(3, 'a spawned statement of `f` is not a call of a cps function')]


def test_two_variables_of_one_name_in_a_frame_are_reported():
    assert problems('cps void f(void) {\n'
                    '    { int a = 1; cpc_yield(); a++; }\n'
                    '    { int a = 2; cpc_yield(); a++; }\n'
                    '}\n') == [(4, 'two variables of the frame of `f` are named `a`')]


def test_what_the_pipeline_gives_the_emitter_meets_them():
    u, _ = before('emit', 'cps void f(void) {\n'
                  '    { int a = 1; cpc_yield(); a++; }\n'
                  '    { int a = 2; cpc_yield(); a++; }\n'
                  '    cpc_spawn { cpc_yield(); }\n'
                  '}\n')
    assert requires.check(u) == []
