"""types: struct and union types defined in cps functions move to file scope."""
import pytest

from helpers import assert_expected, before, case_id, check, expected_cases, stage


def test_a_local_struct_moves_before_its_function_under_a_name_of_its_own():
    out = stage('types', 'cps int f(void) { struct pt { int x; struct pt *next; } p = {1, 0}; '
                'struct pt *q = &p; cpc_yield(); return q->x; }\n')
    assert out.startswith('struct f__tag_1_pt { int x; struct f__tag_1_pt *next; };\n'), out
    assert ('cps int f(void) { struct f__tag_1_pt p = {1, 0}; '
            'struct f__tag_1_pt *q = &p; cpc_yield(); return q->x; }\n') in out, out


def test_two_blocks_defining_the_same_tag_get_two_names():
    out = stage('types', 'cps void f(void) { { struct s { int a; } x = {1}; cpc_yield(); } '
                '{ union s { long b; } y = {2}; cpc_yield(); } }\n')
    assert out.startswith('struct f__tag_1_s { int a; }; union f__tag_2_s { long b; };\n'), out


def test_a_type_that_uses_a_local_typedef_stays_and_the_typedef_is_marked_unused():
    src = 'cps void f(void) { typedef int T; struct v { T a; } *p = 0; (void)p; cpc_yield(); }\n'
    assert stage('types', src) == src.replace('int T;', 'int T __attribute__((unused));')


def test_a_type_with_a_statement_expression_stays():
    # ({...}) is only allowed in a function
    src = ('cps int f(void) { struct { _Bool x: _Generic(({0;}), default: 1); } m = {1}; '
           'cpc_yield(); return 0; }\n')
    assert stage('types', src) == src


def test_a_standalone_struct_definition_leaves_nothing_behind():
    out = stage('types', 'cps int f(void) { struct pt { int x; }; struct pt p = {1}; '
                'cpc_yield(); return p.x; }\n')
    assert out.startswith('struct f__tag_1_pt { int x; };\n'), out
    assert 'cps int f(void) { ; struct f__tag_1_pt p = {1};' in out, out


def test_native_functions_without_spawns_keep_their_types():
    src = 'int f(void) { struct pt { int x; } p = {1}; return p.x; }\n'
    assert stage('types', src) == src


def test_check_finds_a_struct_left_in_a_cps_function():
    u, ctx = before('types', 'cps void f(void) { struct pt { int x; } p = {1}; cpc_yield(); '
                    '(void)p; }\n')
    assert check('types', u, ctx) == ['`struct pt` is still defined inside `f`']


def test_a_struct_without_a_tag_moves_under_a_generated_tag():
    out = stage('types', 'cps int f(void) { struct { int a; char s[4]; } v = {1, "hi"}; '
                'cpc_yield(); return v.a; }\n')
    assert out.startswith('struct f__tag_1_ { int a; char s[4]; };\n'), out
    assert 'cps int f(void) { struct f__tag_1_ v = {1, "hi"}; cpc_yield(); return v.a; }' in out


def test_a_typedef_of_a_struct_without_a_tag_names_the_moved_struct():
    out = stage('types', 'cps long f(void) { typedef struct { long n; } box; box v = {12}; '
                'cpc_yield(); return v.n; }\n')
    assert out.startswith('struct f__tag_1_box { long n; };\n'), out
    assert 'typedef struct f__tag_1_box box __attribute__((unused)); box v = {12};' in out, out


def test_nested_records_move_with_the_outer_one_and_anonymous_members_stay():
    out = stage('types', 'cps int f(void) { struct o { union { int x; float y; }; '
                'struct { int z; } in; } v = {{1}, {2}}; cpc_yield(); return v.x + v.in.z; }\n')
    assert out.startswith('struct f__tag_1_o { union { int x; float y; }; '
                          'struct { int z; } in; };\n'), out
    assert 'struct f__tag_1_o v = {{1}, {2}};' in out, out


def test_check_finds_a_struct_without_a_tag_left_in_a_cps_function():
    u, ctx = before('types', 'cps void f(void) { struct { int x; } p = {1}; cpc_yield(); '
                    '(void)p; }\n')
    assert check('types', u, ctx) == ['`struct (unnamed at t.cpc:2:20)` is still defined inside `f`']


@pytest.mark.parametrize('case', expected_cases('types'), ids=case_id)
def test_output_is_the_expected_file(case):
    assert_expected('types', case)


def test_records_in_macro_arguments_stay():
    src = ('#define SIZE(e) ((int)(e))\n'
           'cps int f(void) { int n = SIZE(sizeof(struct { char a; char b; })); cpc_yield(); '
           'return n; }\n')
    assert stage('types', src) == src


def test_records_defined_in_expressions_move_and_their_later_uses_follow():
    out = stage('types', 'cps int g(int x);\n'
                'cps int f(void) { int n = g(sizeof(struct t { char a; char b; })); '
                'struct t v = {1, 2}; cpc_yield(); '
                'return n + v.a + (int)sizeof(struct { long x; }); }\n')
    assert out.startswith('cps int g(int x);\nstruct f__tag_1_t { char a; char b; }; '
                          'struct f__tag_2_ { long x; };\n'), out
    assert 'g(sizeof(struct f__tag_1_t)); struct f__tag_1_t v = {1, 2};' in out, out
    assert '(int)sizeof(struct f__tag_2_)' in out, out


def test_enums_defined_in_expressions_are_declared_before_their_statement():
    out = stage('types', 'cps int g(int x);\n'
                'cps int f(int k) { g((enum { A = 6 })k); '
                'if (g((enum e { B = 7 })k)) k = B; return A + k; }\n')
    assert 'enum f__tag_1_ { A = 6 }; g((enum f__tag_1_)k);' in out, out
    assert '{ enum e { B = 7 }; if (g((enum e)k)) k = B; }' in out, out


def test_generic_associations_name_the_hoisted_record_in_scope():
    out = stage('types', 'cps int f(void) { struct s { int a; } v = {1}; cpc_yield(); '
                '{ struct s { long b; } w = {2}; (void)w; '
                'return _Generic(w, struct s: 1, default: 2); } }\n')
    assert '_Generic(w, struct f__tag_2_s: 1, default: 2)' in out, out


def test_a_struct_under_a_pack_pragma_of_the_function_keeps_it_at_file_scope():
    out = stage('types', 'cps int f(void) {\n#pragma pack(push, 1)\n'
                'struct pt { char a; int x; } p = {1, 2};\n#pragma pack(pop)\n'
                'struct q { char a; int x; } r = {3, 4};\n'
                'cpc_yield(); return p.x + r.x; }\n')
    assert out.startswith('\n#pragma pack(push, 1)\nstruct f__tag_1_pt { char a; int x; };\n'
                          '#pragma pack(pop)\n struct f__tag_2_q { char a; int x; };\n'), out


def test_a_pack_reset_to_the_default_is_given_as_one():
    out = stage('types', '#pragma pack(push, 2)\ncps int f(void) {\n#pragma pack()\n'
                'struct pt { char a; int x; } p = {1, 2};\n'
                'cpc_yield(); return p.x; }\n#pragma pack(pop)\n')
    assert '#pragma pack(push)\n#pragma pack()\nstruct f__tag_1_pt { char a; int x; };\n' \
        '#pragma pack(pop)\n' in out, out


def test_pack_pragmas_in_skipped_groups_do_not_count():
    out = stage('types', 'cps int f(void) {\n#if 0\n#pragma pack(1)\n#endif\n'
                'struct pt { char a; int x; } p = {1, 2};\n'
                'cpc_yield(); return p.x; }\n')
    assert out.startswith('struct f__tag_1_pt { char a; int x; };\n'), out


def test_a_pack_given_by_a_pragma_operator_counts():
    out = stage('types', 'cps int f(void) { _Pragma("pack(push, 2)") '
                'struct pt { char a; int x; } p = {1, 2}; _Pragma("pack(pop)") '
                'cpc_yield(); return p.x; }\n')
    assert '#pragma pack(push, 2)\nstruct f__tag_1_pt { char a; int x; };\n' \
        '#pragma pack(pop)\n' in out, out
