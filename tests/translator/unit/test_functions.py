"""emit/functions.py: a cps function as the emitter writes it: its call
sites, resume points, returns and tail calls, and the scopes it refuses."""
import pytest

from cpc import frontend as fe
from helpers import emit

DECLS = 'cps int g(int);\n'


def body_lines(src):
    """The lines of the generated C from the one after `#line 4` (the body's
    first line of statements)."""
    out = emit(DECLS + src)
    lines = out.split('\n')
    return lines[lines.index('#line 4 "t.cpc"') + 1:]


def test_a_call_site_returns_the_call_and_resumes_at_its_label():
    lines = body_lines('cps int f(int a) {\n    int x = g(a);\n    return x + 1;\n}\n')
    assert lines[:3] == [
        '    int x; { /* int x = g(a); */ return g__cps(cpc_k, a); f__resumed_1: CPC_RESUMED(); '
        'cpc_f = CPC_TOP(cpc_k, struct f__frame); CPC_RESULT(x, cpc_f); }',
        '    { int cpc_ret = x + 1; CPC_DROP(cpc_k, struct f__frame); '
        'return cpc_return_reserved(cpc_k, &cpc_ret, sizeof cpc_ret); }',
        '    CPC_DROP(cpc_k, struct f__frame); return cpc_resume_caller(cpc_k); }']


def test_a_tail_call_returns_the_callee_s_entry_without_a_frame():
    out = emit(DECLS + 'cps int f(int a) {\n    return g(a + 1);\n}\n')
    assert body_lines('cps int f(int a) {\n    return g(a + 1);\n}\n')[:2] == \
        ['    {  return g__cps(cpc_k, a + 1); }', '    return cpc_resume_caller(cpc_k); }']
    assert 'struct f__frame' not in out


def test_a_resume_point_in_the_scope_of_a_variably_modified_type_is_refused():
    with pytest.raises(fe.Diags) as e:
        emit('cps int f(int n) {\n    typedef int row[n];\n    cpc_yield();\n'
             '    return sizeof(row) > 0;\n}\n')
    assert [(d.line, d.msg) for d in e.value.diags] == [
        (4, '`row` has a variably modified type and is in scope at this cps call: a thread '
            'cannot resume inside the scope of a variable-length array or of a type derived '
            'from one; end the scope (a block) before the call')]
