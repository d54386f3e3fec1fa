"""implicit_int: `cps` written in place of a type specifier becomes `int`."""
from helpers import check, before, stage

HDR = '#include <cpc/cpc_runtime.h>\n'


def test_file_scope_and_local_implicit_int_declarations_get_int():
    out = stage('implicit_int', HDR + 'cps *gp;\ncps int get(void) { cps *p; p = 0; '
                'return p != 0; }\n')
    assert out.split('\n')[1:3] == ['cps int *gp;', 'cps int get(void) { cps int *p; p = 0; '
                                    'return p != 0; }']


def test_storage_class_before_cps_is_kept():
    out = stage('implicit_int', HDR + 'static cps *sp, *sq;\n')
    assert out.split('\n')[1] == 'static cps int *sp, *sq;'


def test_cps_from_a_macro_gets_int_after_the_macro():
    out = stage('implicit_int', HDR + '#define IMPLICIT cps\ncps int f(void) { IMPLICIT *lp; '
                'lp = 0; return lp != 0; }\n')
    assert out.split('\n')[2] == 'cps int f(void) { IMPLICIT int *lp; lp = 0; return lp != 0; }'


def test_cps_with_a_type_specifier_is_left_alone():
    src = HDR + 'cps int f(void);\ncps void g(void) { f(); }\n'
    assert stage('implicit_int', src) == src


def test_check_finds_an_implicit_int_cps_declaration():
    u, ctx = before('implicit_int', HDR + 'cps *gp;\n')
    assert check('implicit_int', u, ctx) == [
        '`gp` is still declared with `cps` as its only type specifier']


def test_bare_parameters_of_an_old_style_definition_are_left_alone():
    src = HDR + 'cps int bare(vo) { return vo; }\n'
    assert stage('implicit_int', src) == src
