"""codegen (emit/codegen.py): the shape of the generated C, from names and C
text (the calling convention of docs/abi.md)."""

from cpc.emit import codegen
from cpc.emit import codegen as cg


def test_generated_names_derive_from_the_users_name():
    assert (codegen.entry_name('f'), codegen.frame_name('f'), codegen.spawn_args_name('s')) == \
        ('f__cps', 'f__frame', 's__start_args')


def test_the_entry_takes_the_continuation_before_the_users_parameters():
    assert codegen.prototype('static ', 'f', ['int a', 'char *b']) == \
        'static cpc_continuation *f__cps(cpc_continuation *cpc_k, int a, char *b)'


def test_an_unprototyped_entry_has_an_empty_parameter_list():
    assert codegen.unprototyped('', 'f') == 'cpc_continuation *f__cps()'


def test_the_body_takes_the_continuation_and_the_resume_point():
    assert codegen.body_params(['int a']) == 'cpc_continuation *cpc_k, int cpc_resume, int a'


def test_a_call_passes_the_continuation_first():
    assert codegen.call('g__cps', ['x', '1']) == 'g__cps(cpc_k, x, 1)'


def test_function_name_macros_name_the_users_function():
    defines, undefs = codegen.function_name_macros('f')
    assert defines == ('\n#define __func__ "f"\n#define __FUNCTION__ "f"\n'
                       '#define __PRETTY_FUNCTION__ "f"\n')
    assert undefs == '#undef __func__\n#undef __FUNCTION__\n#undef __PRETTY_FUNCTION__\n'


def test_argument_and_frame_structs_end_with_the_function_to_resume():
    assert codegen.args_struct('f', ['int a;']) == 'struct f__args { int a; cpc_function *cpc_fn; };'
    assert codegen.frame_struct('f', ['int x;', 'long y;']) == \
        'struct f__frame { int x; long y; cpc_function *cpc_fn; };'


def test_the_reserve_union_holds_the_frame_and_the_result():
    assert codegen.reserve_union('f', True, 'int ret') == (
        'union f__reserve { struct f__frame f; int ret; };', 'sizeof(union f__reserve)')
    assert codegen.reserve_union('f', False, None) == (None, '0')


def test_frames_are_declared_between_the_frame_markers():
    assert codegen.frames_block(['struct a;', 'struct b;']) == \
        'CPC_FRAMES_BEGIN\nstruct a;\nstruct b;\nCPC_FRAMES_END\n'


def test_pinned_lines_are_one_physical_line():
    assert codegen.pin('#line 3 "t.cpc"', ['a;', '  b;', '', 'c;']) == 'a; b; c;'


def test_a_pinned_line_after_a_line_comment_or_before_a_directive_starts_again_at_its_line():
    assert codegen.pin('#line 3 "t.cpc"', ['a; // x', 'b;', '#if 1\n', 'c;']) == \
        'a; // x\n#line 3 "t.cpc"\nb;\n#line 3 "t.cpc"\n#if 1\n\n#line 3 "t.cpc"\nc;'


def test_names_of_the_generated_items():
    assert (cg.entry_name('f'), cg.frame_name('f'), cg.spawn_args_name('f__spawn_1')) == \
        ('f__cps', 'f__frame', 'f__spawn_1__start_args')


def test_entry_prototypes_take_the_continuation_first():
    assert cg.prototype('static ', 'f', ['int a', 'char *s']) == \
        'static cpc_continuation *f__cps(cpc_continuation *cpc_k, int a, char *s)'
    assert cg.unprototyped('', 'g') == 'cpc_continuation *g__cps()'


def test_a_tail_call_drops_the_frame_first_when_there_is_one():
    assert (cg.tail_call('g__cps', ['x', '1'], None), cg.tail_call('g__cps', ['x'], 'f__frame')) \
        == ('return g__cps(cpc_k, x, 1);',
            '{ CPC_DROP(cpc_k, struct f__frame); return g__cps(cpc_k, x); }')


def test_the_function_name_macros_name_the_user_s_function():
    assert cg.function_name_macros('f') == (
        '\n#define __func__ "f"\n#define __FUNCTION__ "f"\n#define __PRETTY_FUNCTION__ "f"\n',
        '#undef __func__\n#undef __FUNCTION__\n#undef __PRETTY_FUNCTION__\n')


def test_the_resume_lines_table_starts_with_the_entry():
    assert cg.resume_lines('f', [3, 7]) == \
        'static const unsigned f__lines[3] __attribute__((used)) = { 0, 3, 7 };'
