"""macros: which functions must be written with their macros expanded (those
whose rewritten nodes come out of macros), and their check.
Its exact results on characteristic cases: expected/macros/ (test_pass_outputs.py)."""
from cpc import frontend as fe
from cpc import macros
from cpc.analysis.func import func
from helpers import HDR, PATH, before, check

SHOW = ('#define SHOW(e) ((void)#e, (void)(e))\n'
        'cps void f(void) { int y = 1; int *p = &y; cpc_yield(); SHOW(y + *p); }\n')


def test_check_finds_a_macro_to_expand_before_the_pass():
    u, ctx = before('macros', SHOW)
    assert check('macros', u, ctx) == [
        'function `f` still has a node that a later pass rewrites inside a macro expansion']


DECLS = 'cps int g(int);\n#define N 3\n'


def parsed(src):
    u = fe.parse((HDR + DECLS + src).encode(), PATH)
    return u, {c.spelling: func(u, c) for c in u.function_defs()}


def needs_expansion(src, fn='f'):
    u, funcs = parsed(src)
    return macros.needs_expansion(u, funcs[fn])


def test_a_function_without_macros_is_written_as_it_is():
    assert not needs_expansion('cps int f(int n) { return g(n) + 1; }\n')


def test_macros_in_a_native_function_that_nothing_rewrites_stay():
    assert not needs_expansion('int f(int n) { return n + N; }\n')


def test_a_macro_argument_that_is_only_read_stays():
    assert not needs_expansion('#define TWICE(x) (2 * (x))\n'
                               'cps int f(int n) { int a = g(TWICE(n)); return a; }\n')


def test_a_cps_call_written_in_a_macros_body_needs_the_expansion():
    assert needs_expansion('#define CALL() g(1)\ncps int f(void) { int a = CALL(); return a; }\n')


def test_a_statement_starting_in_a_macro_around_a_cps_call_needs_the_expansion():
    assert needs_expansion('#define WHEN(c) if (c) (void)\n'
                           'cps void f(int n) { WHEN(n) g(n); }\n')


def test_a_local_declared_in_a_macro_of_a_cps_function_needs_the_expansion():
    assert needs_expansion('#define DECL int k = 1\ncps int f(int n) { DECL; g(n); return k; }\n')


def test_a_local_named_in_a_macros_body_needs_the_expansion():
    assert needs_expansion('#define USE_N (n + 1)\ncps int f(int n) { g(n); return USE_N; }\n')


def test_a_return_written_in_a_macro_of_a_cps_function_needs_the_expansion():
    assert needs_expansion('#define DONE return 0\ncps int f(int n) { g(n); DONE; }\n')
