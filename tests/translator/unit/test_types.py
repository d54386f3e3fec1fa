"""types: struct and union types defined in cps functions move to file scope.
Its exact results on characteristic cases: expected/types/ (test_pass_outputs.py)."""
import pytest

from cpc import frontend as fe
from helpers import apply, before, check, stage


def test_a_type_that_uses_a_local_typedef_stays_and_the_typedef_is_marked_unused():
    src = 'cps void f(void) { typedef int T; struct v { T a; } *p = 0; (void)p; cpc_yield(); }\n'
    assert stage('types', src) == src.replace('int T;', 'int T __attribute__((unused));')


def test_a_type_with_a_statement_expression_stays():
    # ({...}) is only allowed in a function
    src = ('cps int f(void) { struct { _Bool x: _Generic(({0;}), default: 1); } m = {1}; '
           'cpc_yield(); return 0; }\n')
    assert stage('types', src) == src


def test_native_functions_without_spawns_keep_their_types():
    src = 'int f(void) { struct pt { int x; } p = {1}; return p.x; }\n'
    assert stage('types', src) == src


def test_check_finds_a_struct_left_in_a_cps_function():
    u, ctx = before('types', 'cps void f(void) { struct pt { int x; } p = {1}; cpc_yield(); '
                    '(void)p; }\n')
    assert check('types', u, ctx) == ['`struct pt` is still defined inside `f`']


def test_check_finds_a_struct_without_a_tag_left_in_a_cps_function():
    u, ctx = before('types', 'cps void f(void) { struct { int x; } p = {1}; cpc_yield(); '
                    '(void)p; }\n')
    assert check('types', u, ctx) == ['`struct (unnamed at t.cpc:2:20)` is still defined inside `f`']


def test_records_in_macro_arguments_stay():
    src = ('#define SIZE(e) ((int)(e))\n'
           'cps int f(void) { int n = SIZE(sizeof(struct { char a; char b; })); cpc_yield(); '
           'return n; }\n')
    assert stage('types', src) == src


def test_every_function_s_errors_are_reported_in_one_run():
    src = ''.join('cps int %s(void) {\n#pragma pack(pop)\n'
                  '    struct %s { char c; int i; } v = {1, 2};\n'
                  '    cpc_yield();\n    return v.i;\n}\n' % (f, t)
                  for f, t in (('f', 'a'), ('g', 'b')))
    u, ctx = before('types', src)
    with pytest.raises(fe.Diags) as e:
        apply('types', u, ctx)
    unknown = ('cannot tell the `#pragma pack` in effect here (a pragma before it in this '
               'function restores or names a packing saved outside the function): define '
               'this type outside the function')
    assert [(d.line, d.msg) for d in e.value.diags] == [(4, unknown), (10, unknown)]
