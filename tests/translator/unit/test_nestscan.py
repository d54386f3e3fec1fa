"""nestscan: finding GCC nested function definitions in the text of a file,
before Clang parses it (the `nested` stage lifts what it finds)."""

from cpc import nestscan


def names(src):
    """{enclosing: [nested names, preorder]} as the scanner sees them."""
    return {f.name: [c.name for c in f.walk()] for f in nestscan.scan(src.encode())}


def test_scanner_finds_nested_definitions_at_any_depth():
    src = 'int f(int x) {\n int g(void) { int h(int y) { return y; } return h(x); }\n return g(); }\n'
    assert names(src) == {'f': ['g', 'h']}


def test_scanner_ignores_braces_in_comments_literals_and_directives():
    src = ('int f(void) {\n /* int a(void) { */\n // int b(void) {\n'
           ' const char *s = "int c(void) {"; char k = \'{\';\n'
           '#define D(x) int d(void) {\n'
           ' int e(void) { return 1; }\n return e(); }\n')
    assert names(src) == {'f': ['e']}


def test_scanner_does_not_take_statements_for_definitions():
    src = ('int f(int *v) {\n if (v) { v++; }\n while (v) { break; }\n'
           ' FOREACH(v) { v++; }\n struct s { int a; } z = { 1 };\n'
           ' int w[2] = { 1, 2 };\n for (int i = 0; i < 2; i++) { }\n'
           ' switch (*v) { case 1: { break; } }\n int g(void) { return 1; }\n'
           ' return g(); }\n')
    assert names(src) == {'f': ['g']}


def test_scanner_records_auto_forward_declarations():
    src = 'int f(void) {\n auto int g(int);\n int h(void) { return g(1); }\n int g(int x) { return x; }\n return h(); }\n'
    f, = nestscan.scan(src.encode())
    assert [src[a:b] for (a, b, _) in f.forwards] == ['auto int g(int);']


def test_scanner_finds_definitions_in_statement_expressions_labels_and_cases():
    src = ('int f(int c) {\n int r = ({ int g(void) { return 1; } g(); });\n'
           ' switch (c) { case 1: int h(void) { return 2; }\n r += h(); }\n'
           ' out: __attribute__((unused)) int k(void) { return 3; }\n return r; }\n')
    assert names(src) == {'f': ['g', 'h', 'k']}


def test_scanner_reads_cpc_statements_as_blocks():
    src = ('cps void f(void) {\n cpc_spawn { cps void g(void) { } g(); }\n'
           ' cpc_linked(cpc_default_sched) { int h(void) { return 1; } h(); }\n}\n')
    assert names(src) == {'f': ['g', 'h']}


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
