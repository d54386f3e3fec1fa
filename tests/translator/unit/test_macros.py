"""macros: functions whose rewritten nodes come out of macros are expanded.
Its exact results on characteristic cases: expected/macros/ (test_pass_outputs.py)."""
from helpers import before, check

SHOW = ('#define SHOW(e) ((void)#e, (void)(e))\n'
        'cps void f(void) { int y = 1; int *p = &y; cpc_yield(); SHOW(y + *p); }\n')


def test_check_finds_a_macro_to_expand_before_the_pass():
    u, ctx = before('macros', SHOW)
    assert check('macros', u, ctx) == [
        'function `f` still has a node that a later pass rewrites inside a macro expansion']
