"""nestscan.py: finding nested function definitions in the text, before
Clang can parse the file."""
from cpc import nestscan


def test_nested_definitions_are_found_with_their_parts_under_the_functions_holding_them():
    text = (b'static int outer(int a) {\n'
            b'    int x = (a);\n'
            b'    auto int later(int);\n'
            b'    int add(int y) { int deeper(void) { return 1; } return y + deeper(); }\n'
            b'    if (a) { }\n'
            b'    int later(int z) { return z; }\n'
            b'    return add(x) + later(1);\n'
            b'}\n'
            b'int plain(void) { return 0; }\n')
    tops = nestscan.scan(text)
    assert [(f.name, [c.name for c in f.walk()]) for f in tops] == \
        [('outer', ['add', 'deeper', 'later'])]
    add = tops[0].children[0]
    assert (text[add.params[0]:add.params[1]], text[add.spec[0]:add.spec[1]], add.depth()) == \
        (b'int y', b'int ', 1)
    assert [text[a:b] for (a, b, _) in tops[0].forwards] == [b'auto int later(int);']
