"""lift (emit/lift.py): the variables each resume point saves in the frame:
live after the call, possibly initialised at it, in scope, in declaration
order with the parameters first."""

import pytest

from cpc import frontend as fe
from cpc import pipeline
from cpc.analysis.cfg import Cfg
from cpc.analysis.func import func
from cpc.emit.lift import Lifting
from cpc.emit.split import split
from helpers import before, emitter_input


STDIO = '#include <stdio.h>\n'


def saved(src, fn='f'):
    """The names each resume point of `fn` saves, by resume point."""
    _, funcs = emitter_input(STDIO + src)
    f = funcs[fn]
    cfg = Cfg(f)
    lifting = Lifting(f, cfg)
    return [[v.name for v in lifting.frame_vars(s)] for s in split(f, cfg)]


def test_a_variable_read_after_the_call_is_saved_and_a_dead_one_is_not():
    assert saved('cps void f(int n) { int dead = n; int used = 2; cpc_yield(); '
                 'printf("%d\\n", used); }\n') == [['used']]


def test_a_variable_assigned_before_it_is_read_after_the_call_is_not_saved():
    assert saved('cps void f(void) { int x = 1; cpc_yield(); x = 2; printf("%d\\n", x); }\n') \
        == [[]]


def test_a_variable_not_yet_initialised_at_the_call_is_not_saved():
    # (x is live after the call: read when n is 0, where nothing set it)
    assert saved('cps void f(int n) { int x; cpc_yield(); if (n) x = 1; '
                 'printf("%d\\n", n ? x : 0); }\n') == [['n']]


def test_parameters_come_first_then_locals_in_declaration_order():
    assert saved('cps int f(int b, int a) { int d = 1, c = 2; cpc_yield(); '
                 'return a + b + c + d; }\n') == [['b', 'a', 'd', 'c']]


def test_a_variable_out_of_scope_at_the_call_is_not_saved():
    assert saved('cps int f(int n) { { int in = n; printf("%d\\n", in); } cpc_yield(); '
                 'return n; }\n') == [['n']]


def test_each_resume_point_saves_what_is_live_after_it():
    assert saved('cps int f(int a, int b) { cpc_yield(); a++; cpc_yield(); return a; }\n') \
        == [['a'], ['a']]


def test_a_variable_length_array_live_across_a_call_is_an_error(monkeypatch):
    # (the vlas pass moves such an array to the heap, and boxing reports
    # one left; without either, lifting still refuses it)
    monkeypatch.setattr(pipeline, 'PASSES', [p for p in pipeline.PASSES
                                             if p.name not in ('vlas', 'boxing')])
    with pytest.raises(fe.Diags) as e:
        saved('cps int f(int n) { int v[n]; v[0] = 1; cpc_yield(); return v[0]; }\n')
    assert e.value.diags[0].msg == \
        'variable-length array `v` is live across the cps call to `cpc_yield`'


DECLS = 'cps int g(int);\ncps void w(void);\n'


def saved_by_resume_index(src):
    """{resume index: [saved variable]} of the last function of src."""
    u, _ = before('emit', DECLS + src)
    f = func(u, u.function_defs()[-1])
    cfg = Cfg(f)
    lift = Lifting(f, cfg)
    return {s.index: [v.name for v in lift.frame_vars(s)] for s in split(f, cfg)}


def test_dead_and_uninitialised_variables_are_not_saved():
    assert saved_by_resume_index('cps int f(int a) {\n'
                 '    int dead = a, later, kept = 2;\n'
                 '    w();\n'
                 '    later = 1;\n'
                 '    w();\n'
                 '    return kept + later;\n'
                 '}\n') == {1: ['kept'], 2: ['later', 'kept']}


def test_a_variable_assigned_in_the_call_s_arguments_is_saved():
    assert saved_by_resume_index('cps int f(void) {\n    int i;\n    g(i = 1);\n    return i;\n}\n') == {1: ['i']}


def test_a_variable_is_saved_where_it_is_live_and_in_scope():
    assert saved_by_resume_index('cps int f(int a) {\n'
                 '    int x = a;\n'
                 '    { int y = x; w(); x = y; }\n'
                 '    w();\n'
                 '    return x;\n'
                 '}\n') == {1: ['y'], 2: ['x']}


def stores(src, fn='f'):
    """The names each call site of `fn` stores in the frame, by resume point."""
    _, funcs = emitter_input(STDIO + src)
    f = funcs[fn]
    cfg = Cfg(f)
    lifting = Lifting(f, cfg)
    sites = split(f, cfg)
    site_vars = {s.index: lifting.frame_vars(s) for s in sites}
    keys = lifting.stored(sites, site_vars, set())
    return [[v.name for v in site_vars[s.index] if v.key in keys[s.index]] for s in sites]


def test_a_call_site_does_not_store_what_the_frame_holds_since_the_last_call():
    # a and b come back from the frame at the first resume point; only b
    # changes before the second call
    assert stores('cps void f(int n) { int a = n, b = 0; cpc_yield(); b++; cpc_yield(); '
                  'printf("%d %d\\n", a, b); }\n') == [['a', 'b'], ['b']]


def test_a_variable_changed_on_one_path_or_around_a_loop_is_stored():
    assert stores('cps void f(int n) { int a = n, b = 0; cpc_yield(); if (n) a = 2; '
                  'cpc_yield(); printf("%d %d\\n", a, b); }\n') == [['n', 'a', 'b'], ['a']]
    # (the loop comes back to the call after a++)
    assert stores('cps void f(int n) { int a = 0; while (a < n) { cpc_yield(); a++; } '
                  'printf("%d\\n", a); }\n') == [['n', 'a']]
    assert stores('cps void f(int n) { int a = 0, b = 1; cpc_yield(); '
                  'while (a < n) { a += b; cpc_yield(); } printf("%d %d\\n", a, b); }\n') == \
        [['n', 'a', 'b'], ['a']]


def test_a_variable_changed_by_the_call_s_arguments_or_through_its_address_is_stored():
    assert stores('cps int g(int);\ncps void f(int n) { int a = n; g(a); g(a++); '
                  'printf("%d\\n", a); }\n') == [['a'], ['a']]
    # (an address used at once: a is not boxed)
    assert stores('cps void f(int n) { int a = n; cpc_yield(); '
                  '__builtin_memcpy(&a, &n, sizeof a); cpc_yield(); printf("%d\\n", a); }\n') \
        == [['n', 'a'], ['a']]


def test_the_saved_variables_as_bits_are_the_ones_frame_vars_returns():
    # (Lifting.saved: what stored() and the table of dead variables read
    # instead of making a mask of each site's variables again)
    _, funcs = emitter_input(STDIO + 'cps int g(int);\n'
                             'cps int f(int n) { int a = n, b = 2, c; c = g(a); a = g(c + b); '
                             'for (int i = 0; i < n; i++) b += g(i); return a + b; }\n')
    f = funcs['f']
    cfg = Cfg(f)
    lifting = Lifting(f, cfg)
    sites = split(f, cfg)
    names = {}
    for s in sites:
        names[s.index] = sorted(v.name for v in lifting.frame_vars(s))
        assert sorted(f.vars[k].name for k in cfg.bits.keys_of(lifting.saved[s.index])) == \
            names[s.index]
    assert names == {1: ['b', 'n'], 2: ['b', 'n'], 3: ['a', 'b', 'i', 'n']}, names
