"""cleanup: cleanup attributes in scope at a cps call become explicit calls.
Its exact results on characteristic cases: expected/cleanup/ (test_pass_outputs.py)."""
from helpers import before, check, stage

DONE = 'void done(int *p);\n'


def test_cleanup_without_a_cps_call_in_scope_is_left_to_c():
    src = DONE + 'cps void f(int n) {\n  { int a __attribute__((cleanup(done))) = n; }\n' \
        '  cpc_yield();\n}\n'
    assert stage('cleanup', src) == src


def test_check_finds_a_cleanup_variable_in_scope_at_a_cps_call():
    u, ctx = before('cleanup', DONE + 'cps void f(int n) {\n'
                    '  int a __attribute__((cleanup(done))) = n;\n  cpc_yield();\n}\n')
    assert check('cleanup', u, ctx) == [
        'the cleanup variable `a` of cps function `f` is in scope at a cps call']
