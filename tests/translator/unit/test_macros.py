"""macros: functions whose rewritten nodes come out of macros are expanded."""
import pytest

from helpers import before, check, stage

SHOW = ('#define SHOW(e) ((void)#e, (void)(e))\n'
        'cps void f(void) { int y = 1; int *p = &y; cpc_yield(); SHOW(y + *p); }\n')


def test_stringifying_macro_argument_expands_function():
    out = stage('macros', SHOW)
    assert '"y + *p"' in out and 'SHOW(y' not in out
    out = stage('boxing', SHOW)
    assert '"y + *p"' in out and 'SHOW(y' not in out


def test_check_finds_a_macro_to_expand_before_the_pass():
    u, ctx = before('macros', SHOW)
    assert check('macros', u, ctx) == [
        'function `f` still has a node that a later pass rewrites inside a macro expansion']



def test_a_rendered_functions_macro_shield_says_why_it_is_there():
    # (v, a self-referential macro, stays in the rendering: it is shielded)
    out = stage('macros', '#define v v\n#define YIELD() cpc_yield()\n'
                'cps int f(int v) {\n    YIELD();\n    return v;\n}\n').split('\n')
    first = [i for i, ln in enumerate(out) if ln.startswith('#pragma push_macro(')]
    assert first, out
    assert out[first[0] - 1] == \
        '/* written with its macros expanded: none of its names is a macro here */', out
    # (and no comment where nothing is shielded)
    plain = stage('macros', '#define YIELD() cpc_yield()\n'
                  'cps int f(void) {\n    YIELD();\n    return 3;\n}\n')
    assert 'push_macro' not in plain and 'macros expanded' not in plain, plain
