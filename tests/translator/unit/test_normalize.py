"""normalize: every cps call becomes a statement in normal form.
Its exact results on characteristic cases: expected/normalize/ (test_pass_outputs.py)."""
from helpers import before, check, stage

G = 'cps int g(int);\n'


def test_hoists_sum_of_calls_in_order():
    out = stage('normalize', G + 'cps int f(void) { int x; x = g(1) + g(2); return x; }\n')
    assert out == G + ('cps int f(void) { int x; { int cpc_t1 = g(1); int cpc_t2 = g(2); '
                       '(void)(x = cpc_t1 + cpc_t2); } return x; }\n')


def test_and_becomes_if_keeping_short_circuit():
    out = stage('normalize', G + 'cps int f(int a) { return a && g(1); }\n')
    assert out == G + ('cps int f(int a) { { int cpc_t2; if (a) { int cpc_t1 = g(1); '
                       'cpc_t2 = !!(cpc_t1); } else cpc_t2 = 0; return cpc_t2; } }\n')


def test_while_condition_moves_into_body():
    out = stage('normalize', G + 'cps void f(int n) { while ((n = g(n)) > 0) n--; }\n')
    assert out == G + ('cps void f(int n) { while (1) { int cpc_t1 = g(n); '
                       'if (!((n = cpc_t1) > 0)) break; n--; } }\n')


def test_declarators_split():
    out = stage('normalize', G + 'cps void f(void) { int a = 1, b = g(a) + 1; }\n')
    assert out == G + 'cps void f(void) { int a = 1; int cpc_t1 = g(a); int b = cpc_t1 + 1; }\n'


def test_check_finds_a_nested_cps_call_before_normalisation():
    u, ctx = before('normalize', G + 'cps int f(int a) {\n  return g(g(a)) + 1;\n}\n')
    assert check('normalize', u, ctx) == ['cps call to `g` is not in normal form'] * 2


def test_gnu_binary_conditional_evaluates_its_condition_once():
    out = stage('normalize', G + 'cps int f(void) { return g(0) ?: g(1); }\n')
    assert out == G + ('cps int f(void) { { int cpc_t1 = g(0); int cpc_t3 = cpc_t1; '
                       'if (!cpc_t3) { int cpc_t2 = g(1); cpc_t3 = cpc_t2; } '
                       'return cpc_t3; } }\n'), out


def test_atomic_builtin_operands_are_hoisted():
    out = stage('normalize', G + 'cps void f(int *p) { __atomic_fetch_add(p, g(1), 5); }\n')
    assert out == G + ('cps void f(int *p) { { int cpc_t1 = g(1); '
                       '(void)(__atomic_fetch_add(p, cpc_t1, 5)); } }\n'), out


def test_generic_selection_runs_only_the_association_the_compiler_selects():
    out = stage('normalize', G + 'cps int f(long v) { return _Generic(v, int: g(1), '
                'long: g(2), default: 3); }\n')
    assert out == G + ('cps int f(long v) { { int cpc_t1 = _Generic(v, int: 1, long: 2, '
                       'default: 3); int cpc_t2; if (cpc_t1 == 1) { int cpc_t3 = g(1); '
                       'cpc_t2 = cpc_t3; } else if (cpc_t1 == 2) { int cpc_t4 = g(2); '
                       'cpc_t2 = cpc_t4; } else if (cpc_t1 == 3) { cpc_t2 = 3; } '
                       'return cpc_t2; } }\n'), out


def test_choose_expr_is_its_chosen_branch():
    out = stage('normalize', G + 'cps int f(void) { return __builtin_choose_expr(1, g(1), 0); }\n')
    assert out == G + 'cps int f(void) { { int cpc_t1 = g(1); return cpc_t1; } }\n', out
