"""unevaluated: cps calls in sizeof, _Alignof and typeof become values of
their type (C never evaluates them, and no function has their name)."""
import pytest

from helpers import before, check, stage

DECLS = ('struct s { int arr[4]; };\ncps long big(void);\ncps struct s make(void);\n'
         'cps void nothing(void);\n')


def test_sizeof_of_a_member_of_a_cps_call_result():
    out = stage('unevaluated', DECLS + 'int f(void) { return sizeof(make().arr); }\n')
    assert 'return sizeof((*(struct s *)0).arr);' in out, out


def test_typeof_of_a_cps_call_in_a_cps_function_and_at_file_scope():
    out = stage('unevaluated', DECLS + 'typeof(big()) g;\n'
                'cps void f(void) { __typeof__(big()) a = 7; cpc_yield(); g = a; }\n')
    assert 'typeof((*(long *)0)) g;' in out, out
    assert '__typeof__((*(long *)0)) a = 7;' in out, out


def test_alignof_and_a_void_call():
    out = stage('unevaluated', DECLS + 'int f(void) { return _Alignof(typeof(big())) '
                '+ sizeof(nothing()); }\n')
    assert 'return _Alignof(typeof((*(long *)0))) + sizeof(((void)0));' in out, out


def test_evaluated_calls_are_left_alone():
    src = DECLS + 'cps long f(void) { long x = big(); return x + sizeof x; }\n'
    assert stage('unevaluated', src) == src


def test_check_finds_a_cps_call_left_in_sizeof():
    # the unit the pass receives: the call is still there
    u, ctx = before('unevaluated', DECLS + 'int f(void) { return sizeof big(); }\n')
    assert check('unevaluated', u, ctx) == ['a cps call remains in an unevaluated operand']



def test_generic_controlling_expression_and_associations_it_cannot_select():
    out = stage('unevaluated', DECLS + 'cps long f(int i) { return _Generic(big(), long: 1, '
                'default: 2) + _Generic(i, int: big(), struct s: make().arr[0], '
                'default: 3); }\n')
    # (big() has the selection's type, long: it may be selected; make() may not)
    assert 'return _Generic((*(long *)0), long: 1, default: 2) + _Generic(i, int: big(), ' \
        'struct s: (*(struct s *)0).arr[0], default: 3);' in out, out


def test_arguments_of_builtins_that_evaluate_none():
    out = stage('unevaluated', DECLS + 'cps long f(void) { return __builtin_constant_p(big()) '
                '+ __builtin_object_size(make().arr, 0); }\n')
    assert 'return __builtin_constant_p((*(long *)0)) + ' \
        '__builtin_object_size((*(struct s *)0).arr, 0);' in out, out


def test_the_branch_choose_expr_does_not_choose():
    out = stage('unevaluated', DECLS + 'cps long f(void) { return __builtin_choose_expr('
                'sizeof(long) == 8, big(), make()); }\n')
    assert 'return __builtin_choose_expr(sizeof(long) == 8, big(), (*(struct s *)0));' in out, out
