"""libclang.py: the libclang functions the bindings lack."""
from cpc.analysis.syntax import K, walk
from cpc.libclang import integer_value, lib, presumed, pretty, skipped_ranges
from helpers import HDR, funcs

import clang.cindex as ci


def test_integer_value_of_constant_expressions_only():
    u, fs = funcs('enum { A = 4 };\nint f(int x) { return (A * 3 + 1) + x + sizeof(int); }\n')
    ret = [n for n, _ in walk(fs['f'].body) if n.kind == K.RETURN_STMT][0]
    exprs = [n for n, _ in walk(ret) if n.kind == K.PAREN_EXPR or n.kind == K.DECL_REF_EXPR]
    assert [(u.src(e), integer_value(e)) for e in exprs] == [('(A * 3 + 1)', 13), ('A', 4),
                                                             ('x', None)]


def test_presumed_locations_follow_line_directives():
    u, fs = funcs('#line 40 "other.cpc"\nint f(void) { return 0; }\n')
    f, line, col = presumed(fs['f'].c.location)
    assert (f, line, col) == ('other.cpc', 40, 5)


def test_skipped_ranges_are_the_groups_the_front_end_did_not_take():
    u, fs = funcs('#if 0\nint dropped;\n#endif\nint f(void) { return 0; }\n')
    (a, b), = skipped_ranges(u)
    assert u.text[a:b] == b'#if 0\nint dropped;\n#endif'


def test_pretty_prints_macro_expanded_code_with__Bool():
    u, fs = funcs('#define TWICE(x) ((x) + (x))\n'
                  '_Bool f(int y) { return TWICE(y) > 0; }\n')
    assert pretty(fs['f'].c) == '_Bool f(int y) {\n    return ((y) + (y)) > 0;\n}\n'


def test_the_handle_is_its_own_and_leaves_the_bindings_alone():
    assert lib() is lib() and lib() is not ci.conf.lib
