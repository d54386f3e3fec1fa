"""consistency: every declaration of a function agrees on whether it is cps."""
import pytest

from cpc import frontend as fe
from helpers import stage


def test_conflicting_declarations_are_an_error():
    with pytest.raises(fe.Diags) as e:
        stage('consistency', 'cps int f(int x);\nint f(int x);\n')
    assert e.value.diags[0].msg.startswith('conflicting declarations of `f`: declared not cps here')


def test_cps_definition_after_an_implicit_declaration_is_an_error():
    with pytest.raises(fe.Diags) as e:
        stage('consistency', 'cps void g(void) { f(1); }\ncps int f(int x) { return x; }\n')
    d = e.value.diags[0]   # lines count the header's (HDR)
    assert (d.line, d.msg) == (3, '`f` is declared cps here, but its call at t.cpc:2:20 '
                                  'declared it implicitly, not cps; declare it cps before '
                                  'that call')


def test_native_definition_after_an_implicit_declaration_is_accepted():
    stage('consistency', 'cps void g(void) { f(1); }\nint f(int x) { return x; }\n')


def test_cps_definition_with_a_builtins_name_is_an_error():
    with pytest.raises(fe.Diags) as e:
        stage('consistency', 'cps long labs(long x) { return x; }\n')
    assert e.value.diags[0].msg.startswith('`labs` is a C library function the compiler knows')


def test_cps_marks_through_a_typedef_or_in_a_returned_pointer_are_not_taken_for_a_builtin():
    stage('consistency', 'typedef cps int cft(int);\ncft f;\ncps int f(int x) { return x; }\n'
                         'cps int (*get(void))(int) { return f; }\n')
