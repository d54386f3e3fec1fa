"""rename: locals of a cps function that share a name are renamed.
Its exact results on characteristic cases: expected/rename/ (test_pass_outputs.py)."""
from helpers import before, check, stage


def test_shadowing_local_renamed():
    out = stage('rename', 'cps void f(int i) { { int i = 2; cpc_yield(); i++; } }\n')
    assert out == 'cps void f(int i) { { int i__2 = 2; cpc_yield(); i__2++; } }\n'


def test_check_finds_shadowing_before_renaming():
    u, ctx = before('rename', 'cps void f(int i) {\n  { int i = 2; cpc_yield(); i++; }\n}\n')
    assert check('rename', u, ctx) == ['two locals of cps function `f` are named `i`']


def test_locals_and_parameters_spelt_like_generated_ones_are_renamed():
    out = stage('rename', 'cps int t(int cpc_f) { int cpc_k = cpc_f; cpc_yield(); '
                'return cpc_k; }\n')
    assert out == ('cps int t(int cpc_f__2) { int cpc_k__2 = cpc_f__2; cpc_yield(); '
                   'return cpc_k__2; }\n'), out

