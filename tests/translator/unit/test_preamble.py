"""emit/preamble.py: the attributes of the generated functions.  A body with many resume points is compiled at gcc's -O1 under -O2 and
above (CPC_LARGE_FN, preamble.large_body; docs/abi.md, "chunked body"), its
chunks too: gcc's -O2 took half its time on such bodies for no gain a
suspension on every line leaves room for (bench/README.md)."""
import os
import re
import subprocess

from cpc.emit import chunks
from cpc.emit import preamble
from helpers import HDR, emit
from test_chunks import chunk_functions, many

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
CPCC = os.path.join(TOP, 'bin', 'cpcc')


def heads(out, name):
    """The prototype and the definition's head of each function whose name
    matches `name` (a regular expression)."""
    return re.findall(r'^static [^;{]*\*(?:%s)\(cpc_continuation[^;{]*[;{]' % name, out, re.M)


def test_the_functions_of_a_chunked_body_are_large_functions():
    out = emit(many(chunks.CHUNKED_ABOVE + 72))
    assert sorted(chunk_functions(out)) == [1, 2, 3]
    bodies = heads(out, r'f|f__body_\d+')
    assert len(bodies) == 6, bodies                 # a prototype and a definition each
    for h in bodies:
        assert 'CPC_LARGE_FN' in h and 'CPC_CPS_FN' not in h, h
    # the entry, the dispatch stubs and the callee keep theirs
    assert all('CPC_CPS_FN' in h for h in heads(out, r'f__cps|square\w*'))
    assert all('CPC_RESUME_STUB' in h for h in heads(out, r'f__dispatch\w*'))
    assert out.index('#define CPC_LARGE_FN') < out.index('#line 1 ')


def test_a_large_body_that_stays_one_function_is_a_large_function():
    # (a label: no cut)
    out = emit(many(chunks.CHUNKED_ABOVE + 72, head='    int total = 0;\nagain:\n'))
    assert list(chunk_functions(out)) == [1]
    assert all('CPC_LARGE_FN' in h for h in heads(out, 'f'))


def test_a_body_at_the_limit_keeps_the_attributes_of_every_cps_function():
    out = emit(many(preamble.LARGE_BODY_SITES))
    assert 'CPC_LARGE_FN' not in out
    assert all('CPC_CPS_FN' in h for h in heads(out, 'f'))


def test_gcc_compiles_a_large_body_at_O1_and_the_others_at_the_command_line_s_level(tmp_path):
    # tree PRE runs at -O2, not at -O1: its dump names the functions it ran
    # on.  (Two `optimize` attributes on one function do not add up: the
    # last one starts again from the command line, so CPC_LARGE_FN replaces
    # CPC_CPS_FN rather than adding to it.)
    (tmp_path / 'p.cpc').write_text(HDR + many(chunks.CHUNKED_ABOVE + 72).replace(
        'cps int square', 'cps int square2(int v) { return v + 1; }\ncps int square') +
        'cps int g(int v) { return square2(v) + square(v) + f(v); }\n')
    r = subprocess.run([CPCC, '-O2', '-c', '-fdump-tree-pre=pre.txt', '-o', 'p.o', 'p.cpc'],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # (an asm label's symbol is written *name)
    ran = set(re.findall(r'^;; Function \S+ \(\*?(\S+?),', (tmp_path / 'pre.txt').read_text(),
                         re.M))
    assert {'f__cps', 'g__cps'} <= ran, ran
    assert not ran & {'f.body', 'f__body_2', 'f__body_3'}, ran


def test_the_preamble_defines_the_large_functions_attribute_only_when_asked():
    assert '#define CPC_CPS_FN' in preamble.preamble(False)
    assert 'CPC_LARGE_FN' not in preamble.preamble(False)
    assert preamble.preamble(True).startswith(preamble.preamble(False))
    assert '#define CPC_LARGE_FN' in preamble.preamble(True)
