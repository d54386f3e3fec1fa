"""emit/requires.py: what the emitter requires of its input beyond normal
form and boxing, checked on units made by hand (the pipeline's meet it)."""
from cpc.emit import requires
from cpc import frontend as fe
from helpers import HDR, PATH, before


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
