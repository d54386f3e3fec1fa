"""consistency: every declaration of a function agrees on cps-ness, and a
cps function takes no builtin's name."""
import pytest

from cpc import consistency
from cpc import frontend as fe
from helpers import HDR, PATH, before, stage


def test_conflicting_declarations_are_an_error():
    with pytest.raises(fe.Diags) as e:
        stage('consistency', 'cps int f(int x);\nint f(int x);\n')
    assert [(d.line, d.msg) for d in e.value.diags] == [
        (3, 'conflicting declarations of `f`: declared not cps here, but cps at t.cpc:2:1')]


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
    assert [(d.line, d.msg) for d in e.value.diags] == [
        (2, '`labs` is a C library function the compiler knows (a builtin): a cps function '
            'cannot take its name')]


def test_cps_marks_through_a_typedef_or_in_a_returned_pointer_are_not_taken_for_a_builtin():
    stage('consistency', 'typedef cps int cft(int);\ncft f;\ncps int f(int x) { return x; }\n'
                         'cps int (*get(void))(int) { return f; }\n')


def test_a_macro_standing_for_cps_through_another_macro_spells_cps():
    u = fe.parse((HDR + '#define coroutine_fn cps\n#define async_fn coroutine_fn\n'
                  '#define two cps cps\nasync_fn void f(void);\n').encode(), PATH)
    spelling = consistency.cps_spelling_re(u)
    assert [bool(spelling.search(w)) for w in (b'cps', b'coroutine_fn', b'async_fn', b'two',
                                                b'cpsx')] == [True, True, True, False, False]


def test_declarations_in_function_bodies_are_declarations_of_the_file():
    u = fe.parse((HDR + 'int f(void) { void sub(int n); { int g(void); sub(g()); } '
                  'return 0; }\nint h(void);\n').encode(), PATH)
    names = [c.spelling for c in consistency.function_declarations(u) if u.in_main_file(c)]
    assert names == ['f', 'sub', 'g', 'h']


def test_a_block_scope_declaration_that_is_not_cps_conflicts_with_a_cps_one():
    with pytest.raises(fe.Diags) as e:
        stage('consistency', 'cps void sub(int n);\nint f(void) {\n  void sub(int n);\n'
              '  return 0;\n}\n')
    d = e.value.diags[0]
    assert (d.line, d.msg) == (4, 'conflicting declarations of `sub`: declared not cps here, '
                                  'but cps at t.cpc:2:1')


def test_a_cps_declaration_through_a_macro_agrees_with_a_cps_one():
    stage('consistency', '#define coroutine_fn cps\ncps void f(void);\n'
          'coroutine_fn void f(void);\n')


def test_defining_attribute_as_a_macro_is_an_error():
    with pytest.raises(fe.Diags) as e:
        stage('consistency', '#define __attribute__(x)\nint f(void);\n')
    d = e.value.diags[0]
    assert d.line == 2 and d.msg.startswith(
        '`__attribute__` is defined as a macro: cps functions are marked with a GNU attribute')


def test_a_header_macro_standing_for_cps_through_another_spells_cps_in_the_file(tmp_path):
    # (QEMU's coroutine_fn: the header's chain co_fn -> co_inner -> cps; the
    # file names co_fn only)
    (tmp_path / 'h.h').write_text('#define co_inner cps\n#define co_fn co_inner\n'
                                  'cps void f(void);\n')
    path = str(tmp_path / 't.cpc')
    stage('consistency', '#include "h.h"\nco_fn void f(void);\n', path=path)
    with pytest.raises(fe.Diags) as e:
        stage('consistency', '#include "h.h"\nvoid f(void);\n', path=path)
    assert e.value.diags[0].msg.startswith('conflicting declarations of `f`: declared not cps here')


def test_the_spellings_of_cps_are_read_from_the_macros_the_file_names(tmp_path):
    # (a library's thousands of other macros are not read)
    (tmp_path / 'h.h').write_text('#define co_inner cps\n#define co_fn co_inner\n'
                                  '#define unused_fn cps\n')
    u, _ = before('consistency', '#include "h.h"\nco_fn void f(void);\n',
                  path=str(tmp_path / 't.cpc'))
    spelling = consistency.cps_spelling_re(u)
    assert [w for w in (b'cps', b'co_fn', b'co_inner', b'unused_fn')
            if spelling.fullmatch(w)] == [b'cps', b'co_fn', b'co_inner']


def test_a_headers_cps_declaration_after_an_implicit_one_is_an_error(tmp_path):
    # (the header declares `late` once: it is still asked, for the call
    # that declared it implicitly before)
    (tmp_path / 'late.h').write_text('cps int late(int x);\n')
    path = str(tmp_path / 't.cpc')
    with pytest.raises(fe.Diags) as e:
        stage('consistency', 'cps void g(void) { late(1); }\n#include "late.h"\n', path=path)
    assert [d.msg.split(', but')[0] for d in e.value.diags] == [
        '`late` is declared cps here']

