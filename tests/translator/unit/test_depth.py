"""Deeply nested programs translate (the walks are not limited by Python's
default recursion depth), and one deeper than the translator can take is a
diagnostic on the file, not a crash."""
import pytest

from cpc import depth
from cpc import frontend as fe
from cpc import pipeline

HDR = '#include <cpc/cpc_runtime.h>\ncps int g(int);\n'


def translate(body):
    return pipeline.translate((HDR + body).encode(), 't.cpc')


def test_and_chain_of_2000_terms():
    chain = ' && '.join('g(%d)' % i for i in range(2000))
    out = translate('cps int f(void) { return %s; }\n' % chain)
    assert out.count('f__resumed_') >= 2 * 1999      # every call is a resume point


def test_sum_of_600_cps_calls():
    total = ' + '.join('g(%d)' % i for i in range(600))
    out = translate('cps int f(void) { return %s; }\n' % total)
    assert 'f__resumed_599:' in out


def test_else_if_chain_of_330_branches():
    chain = ' else '.join('if (x == %d) r = g(%d);' % (i, i) for i in range(330))
    out = translate('cps int f(int x) { int r = 0; %s return r; }\n' % chain)
    assert 'f__resumed_330:' in out


def test_deeper_than_the_limit_is_a_diagnostic(monkeypatch):
    monkeypatch.setattr(depth, 'RECURSION_LIMIT', 1200)
    monkeypatch.setattr(depth, 'STACK_BYTES', 64 << 20)
    total = ' + '.join('g(%d)' % i for i in range(600))
    with pytest.raises(fe.Diags) as e:
        translate('cps int f(void) { return %s; }\n' % total)
    d, = e.value.diags
    assert (d.file, d.line) == ('t.cpc', 1) and 'nests too deeply' in d.msg
