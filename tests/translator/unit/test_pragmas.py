"""pragmas (analysis/pragmas.py): the pragmas written in a function and the
`#pragma pack` in effect at a point of it."""
import pytest

from cpc import frontend as fe
from cpc.analysis import pragmas
from helpers import HDR, PATH


def unit(body):
    """(unit, f, offset of f's body, offset of the `mark` in it)."""
    u = fe.parse((HDR + 'int f(void) {\n' + body + '\nint mark = 0; return mark; }\n').encode(),
                 PATH)
    f = [c for c in u.function_defs() if c.spelling == 'f'][0]
    return u, f, f.extent.start.offset, u.text.index(b'int mark')


def pack_at_mark(body):
    u, f, a, b = unit(body)
    return pragmas.pack_change(u, a, b, f)


def test_pragma_lines_and_operators_are_found_as_lines():
    u, f, a, b = unit('#pragma GCC ivdep\n_Pragma("pack(push, \\"2\\")")\n'
                      '#define P _Pragma("omp")\nP\n')
    assert [line for _, line in pragmas.written_in(u, a, b)] == [
        '#pragma GCC ivdep', '#pragma pack(push, "2")']


def test_pragmas_in_groups_the_front_end_skips_are_not_found():
    u, f, a, b = unit('#if 0\n#pragma pack(1)\n#endif\n#pragma pack(2)\n')
    assert [line for _, line in pragmas.written_in(u, a, b)] == ['#pragma pack(2)']


def test_a_packing_pushed_then_popped_is_no_change():
    assert pack_at_mark('#pragma pack(push, 1)\n#pragma pack(pop)\n') is None


def test_a_packing_set_is_the_change():
    assert pack_at_mark('#pragma pack(push, 4)\n#pragma pack(2)\n') == 2


def test_the_default_packing_is_zero():
    assert pack_at_mark('#pragma pack()\n') == 0


def test_a_pop_of_a_packing_saved_before_the_function_cannot_be_told():
    with pytest.raises(fe.Diags) as e:
        pack_at_mark('#pragma pack(pop)\n')
    assert e.value.diags[0].msg.startswith('cannot tell the `#pragma pack` in effect here')


def test_a_named_push_cannot_be_told():
    with pytest.raises(fe.Diags):
        pack_at_mark('#pragma pack(push, r, 1)\n')


def test_the_lines_of_a_packing_and_the_line_that_restores_it():
    assert pragmas.pragma_lines(2) == ('#pragma pack(push, 2)\n', '#pragma pack(pop)\n')
    assert pragmas.pragma_lines(0) == ('#pragma pack(push)\n#pragma pack()\n',
                                       '#pragma pack(pop)\n')
