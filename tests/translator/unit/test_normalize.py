"""normalize: every cps call becomes a statement in normal form."""
import pytest

from helpers import assert_expected, before, case_id, check, expected_cases, stage

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


def test_do_while_continue_jumps_to_condition():
    out = stage('normalize', G + 'cps void f(int n) { do { if (n) continue; n++; } while (g(n)); }\n')
    assert 'goto cpc_continue_1;' in out and 'cpc_continue_1: ;' in out


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


@pytest.mark.parametrize('case', expected_cases('normalize'), ids=case_id)
def test_output_is_the_expected_file(case):
    assert_expected('normalize', case)


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


def test_cps_calls_in_array_bounds_are_made_before_the_declaration_then_the_initialiser():
    # (`last` has no cps call in its scope: a VLA that has moves to the heap first)
    out = stage('normalize', G + 'cps int *h(void);\ncps long f(void) { long n; '
                '{ int last[g(2)]; n = sizeof last; } '
                'int (*p)[g(3)] = (int (*)[g(4)])h(); return n + sizeof *p; }\n')
    assert ('{ int cpc_t1 = g(2); int last[cpc_t1]; n = sizeof last; } '
            'int cpc_t2 = g(3); int cpc_t3 = g(4); int *cpc_t4 = h(); '
            'int (*p)[cpc_t2] = (int (*)[cpc_t3])cpc_t4; ') in out, out


def test_sizeof_of_a_variable_length_array_type_makes_its_calls():
    out = stage('normalize', G + 'cps long f(void) { return sizeof(int[g(1)]); }\n')
    assert 'int cpc_t1 = g(1); return sizeof(int[cpc_t1]);' in out, out


def test_computed_goto_makes_its_calls_then_jumps():
    out = stage('normalize', G + 'cps void f(void) { static void *t[] = { &&a }; '
                'goto *t[g(0)]; a: ; }\n')
    assert '{ int cpc_t1 = g(0); goto *(t[cpc_t1]); }' in out, out


def test_asm_operands_make_their_calls_first():
    out = stage('normalize', G + 'cps int f(void) { int x; '
                '__asm__("" : "=r"(x) : "0"(g(1))); return x; }\n')
    assert '{ int cpc_t1 = g(1); __asm__("" : "=r"(x) : "0"(cpc_t1)); }' in out, out


def test_loop_hints_of_a_loop_split_by_cps_calls_go_and_their_lines_stay():
    out = stage('normalize', G + 'cps int f(int n) {\n#pragma GCC unroll 4\n'
                '    for (int i = 0; i < g(n); i++) n--;\n#pragma GCC ivdep\n'
                '    while (g(n)) n--;\n#pragma GCC unroll 2\n'
                '    for (int i = 0; i < 3; i++) n++;\n    return n; }\n')
    lines = out.split('\n')
    assert '#pragma GCC unroll 4' not in out and '#pragma GCC ivdep' not in out, out
    assert lines[2] == '' and lines[4] == '', lines       # the hints' lines, kept empty
    assert '#pragma GCC unroll 2' in out, out             # a loop without cps calls keeps it
