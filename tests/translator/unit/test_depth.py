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


def test_a_thousand_nested_blocks_translate_as_gcc_compiles_them(tmp_path):
    # Clang's default limit is 256 brackets; gcc has none
    src = HDR + 'cps int f(int x) {\n' + '{' * 1000 + ' x = g(x); ' + '}' * 1000 + \
        '\n    return x;\n}\n'
    out = translate(src[len(HDR):])
    assert 'f__resumed_1:' in out
    compiled_by_gcc(out, tmp_path)


def test_a_thousand_nested_parentheses_translate_as_gcc_compiles_them(tmp_path):
    src = 'cps int f(int x) {\n    x = ' + '(' * 1000 + 'g(x) + 1' + ')' * 1000 + \
        ';\n    return x;\n}\n'
    out = translate(src)
    assert 'f__resumed_1:' in out
    compiled_by_gcc(out, tmp_path)


def compiled_by_gcc(out, tmp_path):
    import subprocess
    c = tmp_path / 't.c'
    c.write_text(out)
    r = subprocess.run(['cc', '-c', '-I', fe.RUNTIME_INCLUDE, str(c), '-o', str(tmp_path / 't.o')],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
