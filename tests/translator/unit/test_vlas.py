"""vlas: variable-length arrays in scope at a cps call move to the heap."""
import pytest

from cpc import frontend as fe
from helpers import before, check, stage


def test_a_vla_in_scope_at_a_cps_call_becomes_bounds_and_heap_storage():
    out = stage('vlas', 'cps int f(int n, int m) {\n  int v[n][m][4];\n  cpc_yield();\n'
                '  return (int)sizeof v + v[0][1][2];\n}\n')
    assert ('__SIZE_TYPE__ cpc_vla1_0 = (n), cpc_vla1_1 = (m); void *cpc_vla1 '
            '__attribute__((cleanup(cpc_vla_free))) = '
            'cpc_vla_new(sizeof(int [cpc_vla1_0][cpc_vla1_1][4]));') in out, out
    use = '(*(int (*)[cpc_vla1_0][cpc_vla1_1][4])cpc_vla1)'
    assert 'return (int)sizeof %s + %s[0][1][2];' % (use, use) in out, out


def test_a_vla_with_no_cps_call_in_scope_stays_on_the_stack():
    src = 'cps int f(int n) {\n  { int v[n]; v[0] = n; }\n  cpc_yield();\n  return 0;\n}\n'
    assert stage('vlas', src) == src


def test_a_cps_call_in_the_bounds_alone_does_not_move_the_array():
    src = 'cps int g(int);\ncps int f(int n) {\n  int v[g(n)];\n  v[0] = 1;\n  return v[0];\n}\n'
    assert stage('vlas', src) == src


def test_the_other_declarators_of_the_declaration_keep_their_order():
    out = stage('vlas', 'cps int f(int n) {\n  int k = n, v[k], *p = v;\n  cpc_yield();\n'
                '  return *p;\n}\n')
    assert ('int k = n; __SIZE_TYPE__ cpc_vla1_0 = (k); void *cpc_vla1 '
            '__attribute__((cleanup(cpc_vla_free))) = cpc_vla_new(sizeof(int [cpc_vla1_0])); '
            'int *p = (*(int (*)[cpc_vla1_0])cpc_vla1);') in out, out


def test_an_array_of_function_pointers_keeps_its_element_type():
    out = stage('vlas', 'int one(int);\ncps int f(int n) {\n  int (*fs[n])(int);\n'
                '  fs[0] = one;\n  cpc_yield();\n  return fs[0](1);\n}\n')
    assert 'cpc_vla_new(sizeof(int (*[cpc_vla1_0])(int)))' in out, out
    assert '(*(int (*(*)[cpc_vla1_0])(int))cpc_vla1)[0] = one;' in out, out


def test_cpc_done_in_the_scope_frees_the_arrays_first_the_last_declared_first():
    out = stage('vlas', 'cps void f(int n) {\n  char a[n];\n  { char b[n];\n'
                '    a[0] = b[0] = 1;\n    cpc_yield();\n    cpc_done();\n  }\n}\n')
    assert '{ cpc_vla_free(&cpc_vla2); cpc_vla_free(&cpc_vla1); cpc_done(); }' in out, out


def test_every_array_that_cannot_move_is_reported_in_one_run():
    with pytest.raises(fe.Diags) as e:
        stage('vlas', 'cps void f(int n) {\n  typedef int row[n];\n  row a;\n'
                      '  _Alignas(32) char b[n];\n  cpc_yield();\n  a[0] = b[0];\n}\n')
    msgs = [(d.line, d.msg) for d in e.value.diags]
    assert [line for line, _ in msgs] == [4, 5], msgs   # (after HDR's line)
    assert 'its bounds are not all written in its declarator' in msgs[0][1]
    assert 'its declaration asks for an alignment' in msgs[1][1]


def test_check_finds_a_vla_in_scope_at_a_cps_call():
    u, ctx = before('vlas', 'cps void f(int n) {\n  int v[n];\n  cpc_yield();\n  v[0] = 1;\n}\n')
    assert check('vlas', u, ctx) == [
        'the variable-length array `v` of cps function `f` is in scope at a cps call']
