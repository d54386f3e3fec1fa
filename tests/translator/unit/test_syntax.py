"""analysis/syntax.py: reading the AST (stripping, calls, CPC's statement
keywords, side effects)."""
from cpc.analysis.syntax import (
    K, args_of, callee_decl, has_side_effects, is_cps_call, linked_sched, spawn_body, strip,
    strip_casts, walk)
from helpers import funcs

DECLS = 'int g(int);\ncps int c(int);\nvolatile int vol;\nint arr[4];\n'


def initialisers(body):
    """{variable name: its initialiser} of the local declarations `int NAME = ...;` in
    body's function `f`."""
    u, fs = funcs(DECLS + 'void f(int x, int *p) {\n' + body + '\n}\n')
    out = {}
    for n, _ in walk(fs['f'].body):
        if n.kind == K.VAR_DECL:
            ex = [k for k in n.get_children() if k.kind.is_expression()]
            out[n.spelling] = ex[-1]
    return u, out


def test_side_effects_of_expressions():
    u, inits = initialisers(
        'int read = x + p[1];\n'
        'int assign = (x = 2);\n'
        'int compound = (x += 2);\n'
        'int shift = (x <<= 1);\n'
        'int pre = ++x;\n'
        'int post = x--;\n'
        'int call = g(x);\n'
        'int stmt = ({ 3; });\n'
        'int volread = vol;\n'
        'int comma = (x, arr[0]);\n'
        'int nested = 1 + (p[0] = 4);\n'
        'int size = sizeof(x = 5);\n'
        'int cond = x ? 1 : g(0);\n')
    got = {name: has_side_effects(e) for name, e in inits.items()}
    assert got == {'read': False, 'assign': True, 'compound': True, 'shift': True,
                   'pre': True, 'post': True, 'call': True, 'stmt': True,
                   'volread': False, 'comma': False, 'nested': True, 'size': False,
                   'cond': True}


def test_compound_assignment_is_not_a_binary_operator():
    """The two copies this definition replaced differed in the binary
    operators they took for assignments (`=` alone, or every assignment
    operator): they agreed on every expression, since Clang makes a
    compound assignment a COMPOUND_ASSIGNMENT_OPERATOR, which both counted."""
    u, inits = initialisers('int a = (x |= 1);\nint b = (x = 1);\n')
    assert [strip(inits[n]).kind for n in ('a', 'b')] == \
        [K.COMPOUND_ASSIGNMENT_OPERATOR, K.BINARY_OPERATOR]


def test_strip_skips_parentheses_and_implicit_casts_not_explicit_ones():
    u, inits = initialisers('int a = ((x));\nint b = (int)(long)x;\nint c = ((void)0, x);\n')
    assert [strip(inits[n]).kind for n in 'abc'] == \
        [K.DECL_REF_EXPR, K.CSTYLE_CAST_EXPR, K.BINARY_OPERATOR]


def test_strip_casts_skips_casts_to_void_only():
    u, fs = funcs(DECLS + 'void f(int x) { (void)(x); (long)x; }\n')
    stmts = list(fs['f'].body.get_children())
    assert [strip_casts(s).kind for s in stmts] == [K.DECL_REF_EXPR, K.CSTYLE_CAST_EXPR]


def test_calls_their_callee_and_arguments():
    u, fs = funcs(DECLS + 'cps void f(int x) { g(x + 1); c(2); }\n')
    calls = [n for n, _ in walk(fs['f'].body) if n.kind == K.CALL_EXPR]
    assert [(callee_decl(n).spelling, [u.src(a) for a in args_of(n)], is_cps_call(n))
            for n in calls] == [('g', ['x + 1'], False), ('c', ['2'], True)]


def test_spawned_and_linked_statements_are_told_by_their_tag():
    u, fs = funcs(DECLS + 'cps void f(cpc_sched *s) {\n'
                  '    cpc_spawn c(1);\n    cpc_linked(s) c(2);\n    if (1) ; else c(3);\n}\n')
    stmts = list(fs['f'].body.get_children())
    assert [u.src(spawn_body(s)) if spawn_body(s) is not None else None for s in stmts] == \
        ['c(1)', None, None]
    assert [linked_sched(s) is not None for s in stmts] == [False, True, False]


def test_walk_leaves_out_spawned_statements_and_unevaluated_sizeof():
    u, fs = funcs(DECLS + 'cps void f(int x) {\n    cpc_spawn c(x);\n'
                  '    x = sizeof(g(x));\n    g(2);\n}\n')
    called = [callee_decl(n).spelling for n, _ in walk(fs['f'].body)
              if n.kind == K.CALL_EXPR]
    everything = [callee_decl(n).spelling
                  for n, _ in walk(fs['f'].body, skip_spawn=False, into_sizeof=True)
                  if n.kind == K.CALL_EXPR]
    assert (called, everything) == (['g'], ['c', 'g', 'g'])
