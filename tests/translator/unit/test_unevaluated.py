"""unevaluated: cps calls in sizeof, _Alignof and typeof become values of
their type (C never evaluates them, and no function has their name).
Its exact results on characteristic cases: expected/unevaluated/ (test_pass_outputs.py)."""
from helpers import before, check, stage

DECLS = ('struct s { int arr[4]; };\ncps long big(void);\ncps struct s make(void);\n'
         'cps void nothing(void);\n')


def test_evaluated_calls_are_left_alone():
    src = DECLS + 'cps long f(void) { long x = big(); return x + sizeof x; }\n'
    assert stage('unevaluated', src) == src


def test_check_finds_a_cps_call_left_in_sizeof():
    # the unit the pass receives: the call is still there
    u, ctx = before('unevaluated', DECLS + 'int f(void) { return sizeof big(); }\n')
    assert check('unevaluated', u, ctx) == ['a cps call remains in an unevaluated operand']
