"""boxing: variables whose address may be retained move to the heap
environment.
Its exact results on characteristic cases: expected/boxing/ (test_pass_outputs.py)."""
import pytest

from cpc import frontend as fe
from cpc import pipeline
from helpers import apply, before, check


def test_check_finds_a_retained_address_before_boxing():
    u, ctx = before('boxing', 'cps void g(int *);\ncps void f(void) {\n  int x = 1;\n  g(&x);\n}\n')
    assert check('boxing', u, ctx) == [
        '`x` of cps function `f` is in scope at a cps call but its address may be retained '
        '(or it is an array live across the call)']


def test_every_function_s_errors_are_reported_in_one_run(monkeypatch):
    # (VLAs the vlas pass did not move: without it, every one is left)
    monkeypatch.setattr(pipeline, 'PASSES', [p for p in pipeline.PASSES if p.name != 'vlas'])
    src = ('cps int f(int n) {\n    int v[n];\n    v[0] = n;\n    cpc_yield();\n'
           '    return v[0];\n}\n'
           'cps int g(int n) {\n    int w[n];\n    w[0] = n;\n    cpc_yield();\n'
           '    return w[0];\n}\n')
    u, ctx = before('boxing', src)
    with pytest.raises(fe.Diags) as e:
        apply('boxing', u, ctx)
    assert [(d.line, d.msg) for d in e.value.diags] == [
        (3, 'variable-length array `v` is live across a cps call'),
        (9, 'variable-length array `w` is live across a cps call')]
