"""typecheck: cps and native function types do not mix."""
import pytest

from cpc import frontend as fe
from helpers import stage


def test_mixing_cps_and_native_pointers_is_an_error():
    with pytest.raises(fe.Diags) as e:
        stage('typecheck', 'cps int f(int x) { return x; }\nint (*q)(int) = f;\n')
    assert 'mixing cps and native function types' in e.value.diags[0].msg


