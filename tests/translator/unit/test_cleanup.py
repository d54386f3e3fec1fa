"""cleanup: cleanup attributes in scope at a cps call become explicit calls."""
import pytest

from helpers import before, check, stage

DONE = 'void done(int *p);\n'


def test_cleanup_runs_at_block_end_and_after_the_returned_value():
    out = stage('cleanup', DONE + 'cps int g(int);\ncps int f(int n) {\n'
                '  int a __attribute__((cleanup(done))) = n;\n'
                '  if (n) return g(a);\n  cpc_yield();\n  return 0;\n}\n')
    assert 'int a __attribute__((unused)) = n;' in out
    assert '{ int cpc_cleanup_ret = g(a); done(&a); return cpc_cleanup_ret; }' in out
    assert '{ int cpc_cleanup_ret = 0; done(&a); return cpc_cleanup_ret; }' in out
    assert out.rstrip().endswith('done(&a); }'), out


def test_break_out_of_the_scope_runs_the_cleanups_innermost_first():
    out = stage('cleanup', DONE + 'cps void f(int n) {\n  for (;;) {\n'
                '    int a __attribute__((cleanup(done))) = n;\n'
                '    int b __attribute__((cleanup(done))) = n;\n'
                '    cpc_yield();\n    if (n) break;\n  }\n}\n')
    assert '{ done(&b); done(&a); break; }' in out


def test_cleanup_without_a_cps_call_in_scope_is_left_to_c():
    src = DONE + 'cps void f(int n) {\n  { int a __attribute__((cleanup(done))) = n; }\n' \
        '  cpc_yield();\n}\n'
    assert stage('cleanup', src) == src


def test_check_finds_a_cleanup_variable_in_scope_at_a_cps_call():
    u, ctx = before('cleanup', DONE + 'cps void f(int n) {\n'
                    '  int a __attribute__((cleanup(done))) = n;\n  cpc_yield();\n}\n')
    assert check('cleanup', u, ctx) == [
        'the cleanup variable `a` of cps function `f` is in scope at a cps call']

