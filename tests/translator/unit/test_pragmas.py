"""pragmas (analysis/pragmas.py): the pragmas written in a function and the
`#pragma pack` in effect at a point of it."""

import pytest
from cpc import frontend as fe
from cpc.analysis import pragmas
from helpers import HDR, PATH
from cpc.analysis.pragmas import pack_change, written_in


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


def parsed_unit(src):
    return fe.parse((HDR + src).encode(), PATH)


def test_pragmas_written_as_lines_and_operators_in_taken_groups():
    u = parsed_unit('#pragma pack(2)\n'
             '_Pragma("pack(push, 4)")\n'
             '#if 0\n#pragma pack(8)\n#endif\n'
             '#pragma once_more\n'
             'int x;\n')
    assert [line for _, line in written_in(u, 0, len(u.text))] == \
        ['#pragma pack(2)', '#pragma pack(push, 4)', '#pragma once_more']


def test_the_packing_after_pushes_pops_and_resets():
    u = parsed_unit('#pragma pack(push, 2)\n#pragma pack(push, 8)\n#pragma pack(pop)\nint x;\n'
             '#pragma pack()\n')
    n = len(HDR)
    end_of_pops = u.text.index(b'int x;')
    assert (pack_change(u, n, end_of_pops, u.top()[-1]),
            pack_change(u, n, len(u.text), u.top()[-1]),
            pack_change(u, end_of_pops, end_of_pops, u.top()[-1])) == (2, 0, None)


def test_a_pop_of_a_packing_pushed_before_the_range_is_an_error():
    u = parsed_unit('int x;\n#pragma pack(pop)\n')
    with pytest.raises(fe.Diags) as e:
        pack_change(u, u.text.index(b'int x;'), len(u.text), u.top()[-1])
    assert [d.msg for d in e.value.diags] == [
        'cannot tell the `#pragma pack` in effect here (a pragma before it in this function '
        'restores or names a packing saved outside the function): define this type outside '
        'the function']
