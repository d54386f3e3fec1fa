"""boxing: variables whose address may be retained move to the heap
environment.
Its exact results on characteristic cases: expected/boxing/ (test_pass_outputs.py)."""
from helpers import before, check


def test_check_finds_a_retained_address_before_boxing():
    u, ctx = before('boxing', 'cps void g(int *);\ncps void f(void) {\n  int x = 1;\n  g(&x);\n}\n')
    assert check('boxing', u, ctx) == [
        '`x` of cps function `f` is in scope at a cps call but its address may be retained '
        '(or it is an array live across the call)']
