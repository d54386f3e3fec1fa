"""emit/codegen.py: the text of each generated item (docs/abi.md)."""
from cpc.emit import codegen as cg


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
