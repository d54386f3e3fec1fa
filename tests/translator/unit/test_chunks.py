"""emit/chunks.py: a body with many resume points written as several C
functions, cut between top-level statements (docs/abi.md, "chunked body").
What a chunked body computes: tests/translator/programs/
chunked_body_carries_variables_across_cuts.cpc."""
import re

import pytest

from cpc.emit import chunks
from helpers import emit

SQUARE = 'cps int square(int v) { cpc_yield(); return v * v; }\n'


def many(n, head='    int total = 0;\n', line='    total += square(n + %d);\n', tail=''):
    """A cps function f(n) with n resume points, one per line."""
    return SQUARE + 'cps int f(int n) {\n' + head + ''.join(line % i for i in range(n)) + \
        tail + '    return total;\n}\n'


def chunk_functions(out):
    """{chunk number: its C text}: the body, named f in the C, is chunk 1."""
    heads = [(m.start(), int(m.group(1) or 1))
             for m in re.finditer(r'^static (?:inline |__attribute__\(\(noinline\)\) )?'
                                  r'\w+ cpc_continuation \*'
                                  r'(?:f|f__body_(\d+))\(.*\{', out, re.M)]
    ends = [a for a, _ in heads[1:]] + [out.index('#undef __func__', heads[-1][0])]
    return {k: out[a:e] for (a, k), e in zip(heads, ends)}


def test_a_body_with_more_resume_points_than_the_limit_is_written_in_chunks():
    out = emit(many(chunks.CHUNKED_ABOVE + 72))
    parts = chunk_functions(out)
    assert sorted(parts) == [1, 2, 3], out
    # each resume label is in one chunk, whose switch goes to it; its call
    # stores it in the frame, where the chunk's dispatch function, which
    # enters that chunk at the resume point the frame holds, is stored once
    for k, text in parts.items():
        d = 'f__dispatch' if k == 1 else 'f__dispatch_%d' % k
        target = re.search(r'\*%s\(cpc_continuation \*cpc_k\) \{ return (\w+)\(cpc_k, '
                           r'\(int\)CPC_TOP\(cpc_k, struct f__frame\)->cpc_point[,)]' % d,
                           out).group(1)
        assert target == ('f' if k == 1 else 'f__body_%d' % k)
        for n in re.findall(r'f__resumed_(\d+):', text):
            assert 'case %s: goto f__resumed_%s;' % (n, n) in text
            assert 'cpc_f->cpc_point = %s; return ' % n in text
    sizes = [len(re.findall(r'f__resumed_\d+:', parts[k])) for k in (1, 2, 3)]
    assert sizes[0] == chunks.CHUNK_SITES and sum(sizes) == chunks.CHUNKED_ABOVE + 72, sizes


def test_each_chunk_stores_its_dispatch_function_once_at_its_entry():
    # (not at each of its call sites: gcc compiles one store per chunk)
    out = emit(many(chunks.CHUNKED_ABOVE + 72))
    parts = chunk_functions(out)
    for k, text in parts.items():
        d = 'f__dispatch' if k == 1 else 'f__dispatch_%d' % k
        assert re.findall(r'cpc_f->cpc_fn = (\w+);', text) == [d], (k, text[:3000])
        # before the chunk's first call: at the push (chunk 1), entered from
        # the chunk before (chunk K, after the switch to its resume points)
        assert text.index('cpc_f->cpc_fn = %s;' % d) < text.index('return square__cps(')
        if k > 1:
            assert text.index('switch (cpc_resume)') < text.index('cpc_f->cpc_fn = ')


def test_a_body_at_the_limit_stays_one_function():
    out = emit(many(chunks.CHUNKED_ABOVE))
    assert list(chunk_functions(out)) == [1]


def test_a_cut_carries_the_variables_live_across_it_and_no_others():
    # `total` and `n` are read after the cut; `spent` is set again before
    # any read after it; `late` is declared after it
    out = emit(many(chunks.CHUNKED_ABOVE + 40, head='    int total = 0, spent = 1;\n',
                    line='    spent = 2; total += square(n + %d) + spent;\n',
                    tail='    int late = total;\n    total = late + square(late);\n'))
    parts = chunk_functions(out)
    cut = re.search(r'\{ ((?:cpc_f->\w+ = \w+; )*)return f__body_2\(cpc_k, 0\); \} \}',
                    parts[1]).group(1)
    assert re.findall(r'cpc_f->(\w+) = ', cut) == ['total']    # (n: stored at entry)
    head = parts[2].split('\n')[0]
    assert re.findall(r'(\w+) = cpc_f->\1;', head.split('switch')[1].split('} ', 1)[1]) == \
        ['n', 'total']
    assert 'int late' not in head


@pytest.mark.parametrize('what, head', [
    ('a label', '    int total = 0;\nagain:\n'),
    # (an address that escapes boxes the variable: the cut copies the pointer)
    ('an address taken', '    int total; __builtin_memcpy(&total, &n, sizeof total);\n'),
    ('a static local', '    int total = 0; static int calls; calls++;\n'),
    ('an array', '    int total = 0; int a[2] = { 1, 2 }; total += a[1];\n'),
    ('a conditional', '    int total = 0;\n#ifdef NOT_DEFINED\n    total = 1;\n#endif\n'),
])
def test_a_body_a_cut_could_break_stays_one_function(what, head):
    out = emit(many(chunks.CHUNKED_ABOVE + 72, head=head))
    assert list(chunk_functions(out)) == [1], what


def test_a_body_with_a_parameter_written_as_an_array_stays_one_function():
    # (`va_list` above all: the generated functions declare it as written)
    src = many(chunks.CHUNKED_ABOVE + 72).replace('cps int f(int n) {',
                                                  'cps int f(int n, int v[2]) {\n    n += v[0];')
    assert list(chunk_functions(emit(src))) == [1]


class CountedItems(dict):
    """A chunk_of that counts the passes over all its resume points."""
    passes = 0

    def items(self):
        CountedItems.passes += 1
        return super().items()


def test_the_chunks_resume_points_are_grouped_in_one_pass_over_them(monkeypatch):
    # (a pass per chunk made the body's text quadratic in its resume points)
    made = chunks.Plan.__init__

    def counted(self, cuts, chunk_of):
        made(self, cuts, CountedItems(chunk_of))
    monkeypatch.setattr(chunks.Plan, '__init__', counted)
    CountedItems.passes = 0
    out = emit(many(chunks.CHUNKED_ABOVE + 8 * chunks.CHUNK_SITES))
    assert len(chunk_functions(out)) >= 8
    assert CountedItems.passes <= 1
