"""split (emit/split.py): which cps calls of a normalised cps function get a
resume point, numbered in source order, and which are tail calls."""

from cpc.analysis.cfg import Cfg
from cpc.analysis.syntax import callee_of
from cpc.emit.split import split
from helpers import emitter_input
from cpc.analysis.func import func
from helpers import before


def resume_points_and_tail_calls(src, fn='f'):
    """([(callee, index)] of the resume points, [callee] of the tail calls)."""
    _, funcs = emitter_input(src)
    f = funcs[fn]
    cfg = Cfg(f)
    resumed = split(f, cfg)
    tails = [s for s in cfg.sites if s.tail]
    return ([(callee_of(s.call).spelling, s.index) for s in resumed],
            [callee_of(s.call).spelling for s in tails])


def test_returning_a_call_of_the_functions_result_type_is_a_tail_call():
    assert resume_points_and_tail_calls(
        'cps int g(int);\ncps int f(int n) { return g(n); }\n') == ([], ['g'])


def test_returning_a_call_of_another_result_type_needs_a_resume_point():
    # (the int result is converted to long after the call)
    assert resume_points_and_tail_calls(
        'cps int g(int);\ncps long f(int n) { return g(n); }\n') == ([('g', 1)], [])


def test_a_void_call_after_which_the_function_ends_is_a_tail_call():
    assert resume_points_and_tail_calls(
        'cps void g(int);\ncps void f(int n) { if (n) g(n - 1); }\n') == ([], ['g'])


def test_a_void_call_followed_by_code_needs_a_resume_point():
    assert resume_points_and_tail_calls(
        'cps void g(int);\ncps void f(int n) { g(n); n++; g(n); }\n') == ([('g', 1)], ['g'])


def test_a_call_in_a_non_void_function_used_as_a_statement_needs_a_resume_point():
    assert resume_points_and_tail_calls(
        'cps void g(int);\ncps int f(int n) { g(n); return 0; }\n') == ([('g', 1)], [])


def test_resume_points_are_numbered_in_source_order():
    assert resume_points_and_tail_calls(
        'cps int g(int);\ncps int h(int);\n'
        'cps int f(int n) { int a = h(n); int b = g(a); return a + b; }\n') == \
        ([('h', 1), ('g', 2)], [])


DECLS = 'cps int g(int);\ncps long l(int);\ncps void w(void);\n'


def sites_of(src):
    """[(call, index or 'tail')] of the last function of src, as the emitter receives it."""
    u, _ = before('emit', DECLS + src)
    f = func(u, u.function_defs()[-1])
    cfg = Cfg(f)
    split(f, cfg)
    return [(u.src(s.call), 'tail' if s.tail else s.index)
            for s in sorted(cfg.sites, key=lambda s: s.call.extent.start.offset)]


def test_a_return_of_a_call_of_the_same_result_type_is_a_tail_call():
    assert sites_of('cps int f(int a) { int x = g(a); return g(x); }\n') == \
        [('g(a)', 1), ('g(x)', 'tail')]


def test_a_return_converting_the_result_resumes():
    assert sites_of('cps int f(int a) { return l(a); }\n') == [('l(a)', 1)]


def test_in_a_void_function_a_call_that_reaches_the_end_is_a_tail_call():
    assert sites_of('cps void f(int a) { if (a) { w(); } else { g(a); a++; } w(); }\n') == \
        [('w()', 1), ('g(a)', 2), ('w()', 'tail')]
