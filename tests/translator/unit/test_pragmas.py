"""analysis/pragmas.py: the pragmas written in a range, and the
`#pragma pack` in effect at a point of a function."""
import pytest

from cpc.analysis.pragmas import pack_change, written_in
from cpc import frontend as fe
from helpers import HDR, PATH


def unit(src):
    return fe.parse((HDR + src).encode(), PATH)


def test_pragmas_written_as_lines_and_operators_in_taken_groups():
    u = unit('#pragma pack(2)\n'
             '_Pragma("pack(push, 4)")\n'
             '#if 0\n#pragma pack(8)\n#endif\n'
             '#pragma once_more\n'
             'int x;\n')
    assert [line for _, line in written_in(u, 0, len(u.text))] == \
        ['#pragma pack(2)', '#pragma pack(push, 4)', '#pragma once_more']


def test_the_packing_after_pushes_pops_and_resets():
    u = unit('#pragma pack(push, 2)\n#pragma pack(push, 8)\n#pragma pack(pop)\nint x;\n'
             '#pragma pack()\n')
    n = len(HDR)
    end_of_pops = u.text.index(b'int x;')
    assert (pack_change(u, n, end_of_pops, u.top()[-1]),
            pack_change(u, n, len(u.text), u.top()[-1]),
            pack_change(u, end_of_pops, end_of_pops, u.top()[-1])) == (2, 0, None)


def test_a_pop_of_a_packing_pushed_before_the_range_is_an_error():
    u = unit('int x;\n#pragma pack(pop)\n')
    with pytest.raises(fe.Diags) as e:
        pack_change(u, u.text.index(b'int x;'), len(u.text), u.top()[-1])
    assert [d.msg for d in e.value.diags] == [
        'cannot tell the `#pragma pack` in effect here (a pragma before it in this function '
        'restores or names a packing saved outside the function): define this type outside '
        'the function']
