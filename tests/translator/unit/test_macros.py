"""macros: functions whose rewritten nodes come out of macros are expanded."""
import pytest

from helpers import assert_expected, before, case_id, check, expected_cases, stage

SHOW = ('#define SHOW(e) ((void)#e, (void)(e))\n'
        'cps void f(void) { int y = 1; int *p = &y; cpc_yield(); SHOW(y + *p); }\n')


def test_stringifying_macro_argument_expands_function():
    out = stage('macros', SHOW)
    assert '"y + *p"' in out and 'SHOW(y' not in out
    out = stage('boxing', SHOW)
    assert '"y + *p"' in out and 'SHOW(y' not in out


def test_check_finds_a_macro_to_expand_before_the_pass():
    u, ctx = before('macros', SHOW)
    assert check('macros', u, ctx) == [
        'function `f` still has a node that a later pass rewrites inside a macro expansion']


@pytest.mark.parametrize('case', expected_cases('macros'), ids=case_id)
def test_output_is_the_expected_file(case):
    assert_expected('macros', case)
