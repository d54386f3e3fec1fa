"""reserved: names of the program spelt like generated ones are renamed.
Its exact results on characteristic cases: expected/reserved/ (test_pass_outputs.py)."""
import pytest

from cpc import frontend as fe
from helpers import before, check, stage


def test_tag_and_static_spelt_like_generated_names_are_renamed_everywhere():
    out = stage('reserved', 'struct t__frame { int a; };\nstatic int t__body = 5;\n'
                'cps int t(int n) { struct t__frame fr = {n}; cpc_yield(); '
                'return fr.a + t__body; }\n')
    assert out == ('struct t__frame__user { int a; };\nstatic int t__body__user = 5;\n'
                   'cps int t(int n) { struct t__frame__user fr = {n}; cpc_yield(); '
                   'return fr.a + t__body__user; }\n'), out


def test_names_of_native_functions_are_not_reserved():
    src = 'int f__cps(int x) { return x; }\nint g(int y) { int g__spawn = y; return g__spawn; }\n'
    assert stage('reserved', src) == src


def test_a_name_with_external_linkage_is_an_error_at_its_declaration():
    with pytest.raises(fe.Diags) as e:
        before('typecheck', 'int t__env;\ncps void t(void) { cpc_yield(); }\n')
    assert [d.msg for d in e.value.diags] == [
        '`t__env` is a name that the translation of `t` uses; it has external linkage '
        'and cannot be renamed: rename it']


def test_check_finds_a_name_spelt_like_a_generated_one():
    u, ctx = before('reserved', 'static int t__frame;\ncps void t(void) { cpc_yield(); }\n')
    assert check('reserved', u, ctx) == [
        '`t__frame` is still a name that the translation of `t` uses']



def test_a_static_spelt_like_the_description_of_a_deferred_entry_is_renamed():
    # (t__deferral: what the runtime's shared deferred path reads for t)
    out = stage('reserved', 'static int t__deferral = 2;\n'
                'cps int t(int n) { cpc_yield(); return n + t__deferral; }\n')
    assert out == ('static int t__deferral__user = 2;\n'
                   'cps int t(int n) { cpc_yield(); return n + t__deferral__user; }\n'), out
