"""attributes: attributes after the declarator of a function definition move in front."""
from helpers import check, before, stage


def test_trailing_attributes_of_a_definition_move_in_front_keeping_its_lines():
    out = stage('attributes', 'static int f(int *p)\n    __attribute__((cpc_no_retain)) '
                '__attribute__((noinline))\n{ return *p; }\nint g(void);\n')
    lines = out.split('\n')
    assert lines[0] == '__attribute__((cpc_no_retain)) __attribute__((noinline)) ' \
        'static int f(int *p)', lines
    assert lines[1].strip() == '' and lines[2] == '{ return *p; }', lines


def test_prototypes_and_definitions_without_trailing_attributes_are_left_alone():
    src = ('int f(int x) __attribute__((const));\n__attribute__((cold)) int g(int x) '
           '{ return x; }\nint (*h(int a))(int) { return 0; }\n')
    assert stage('attributes', src) == src


def test_check_finds_a_definition_with_trailing_attributes():
    u, ctx = before('attributes', 'int f(int x) __attribute__((unused)) { return x; }\n')
    assert check('attributes', u, ctx) == [
        'function `f` still has attributes after its declarator']
