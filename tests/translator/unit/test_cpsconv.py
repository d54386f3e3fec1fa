"""emit/cpsconv.py: the emitter's walk over the file (declarations,
file-scope values, every function), and its errors."""
import pytest

from cpc import frontend as fe
from helpers import emit


def errors(src):
    """(line, message) of each error of the translation of src, in the
    order they are reported (lines count the header's: HDR is line 1)."""
    with pytest.raises(fe.Diags) as e:
        emit(src)
    return [(d.line, d.msg) for d in e.value.diags]


VLA = ('`row` has a variably modified type and is in scope at this cps call: a thread cannot '
       'resume inside the scope of a variable-length array or of a type derived from one; '
       'end the scope (a block) before the call')


def test_every_function_s_errors_are_reported_in_one_run():
    src = ('cps int f(int n) {\n'
           '    typedef int row[n];\n'
           '    cpc_yield();\n'
           '    return sizeof(row) > 0;\n'
           '}\n'
           'cps void w(void) { cpc_yield(); }\n'
           'int main(void) {\n'
           '    w();\n'
           '    return 0;\n'
           '}\n'
           'cps int g(int n) {\n'
           '    typedef int row[n];\n'
           '    cpc_yield();\n'
           '    return sizeof(row) > 1;\n'
           '}\n')
    assert errors(src) == [
        (4, VLA),
        (9, 'cps function `w` called from native function `main`; only cps functions and '
            'cpc_spawn may call it'),
        (14, VLA)]


def test_a_cps_declaration_becomes_the_prototype_of_its_entry():
    out = emit('cps void w(void);\n')
    assert out.split('\n')[-2] == 'cpc_continuation *w__cps(cpc_continuation *cpc_k);'
