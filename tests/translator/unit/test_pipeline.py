"""The pipeline as declared data: stopping after a pass, the invariant checks,
pre-parse stages, fixed points, and the documentation of it."""
import gc
import os
import re
import subprocess
import sys

import pytest

from cpc import driver
from cpc import frontend as fe
from cpc import pipeline
from cpc import reparse
from helpers import HDR, PATH, emit

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
CPCC = os.path.join(TOP, 'bin', 'cpcc')
NESTED = 'cps int g(int);\ncps int f(int a) {\n  return g(g(a)) + 1;\n}\n'


def test_stop_after_names_the_declared_passes_in_order():
    assert pipeline.stage_names() == [s.name for s in pipeline.PRE_PARSE] + \
        ['conditionals', 'headers', 'attributes', 'consistency', 'reserved', 'typecheck', 'implicit_int', 'macros', 'unevaluated', 'types',
         'spawn',
         'linked', 'rename',
         'vlas', 'cleanup', 'normalize', 'boxing']


def test_stop_after_each_pass_gives_cpc_text_that_parses_again():
    for name in pipeline.stage_names():
        out = pipeline.translate((HDR + NESTED).encode(), PATH, stop_after=name)
        fe.parse(out.encode(), PATH)
        assert ('int cpc_t1 = g(a);' in out) == (name in ('normalize', 'boxing')), name


def test_stop_after_an_unknown_pass_is_an_error():
    with pytest.raises(ValueError):
        pipeline.translate(HDR.encode(), PATH, stop_after='lifting')


def test_cpcc_stop_after_prints_the_text_after_the_pass(tmp_path):
    src = tmp_path / 't.cpc'
    src.write_text(HDR + NESTED)
    r = subprocess.run([CPCC, '--cpc-stop-after=normalize', str(src)],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == HDR + ('cps int g(int);\ncps int f(int a) {\n'
                              '  { int cpc_t1 = g(a); int cpc_t2 = g(cpc_t1); '
                              'return cpc_t2 + 1; }\n}\n')
    assert not any(tmp_path.glob('*.o')) and not (tmp_path / 'a.out').exists()


def test_cpcc_stop_after_an_unknown_pass_lists_the_passes(tmp_path):
    r = subprocess.run([CPCC, '--cpc-stop-after=lift', 'x.cpc'],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode != 0
    assert r.stderr == ('cpcc: error: unknown pass `lift` for --cpc-stop-after; the passes are: '
                        + ', '.join(pipeline.stage_names()) + '\n')


def without(name, monkeypatch):
    """Make pass `name` do nothing."""
    passes = [p if p.name != name else
              pipeline.Pass(p.name, p.module, lambda u, ctx: [], p.doc, check=p.check)
              for p in pipeline.PASSES]
    monkeypatch.setattr(pipeline, 'PASSES', passes)


def test_a_broken_invariant_names_the_pass_and_the_place(monkeypatch):
    without('normalize', monkeypatch)
    with pytest.raises(pipeline.InvariantBroken) as e:
        pipeline.translate((HDR + NESTED).encode(), PATH, check_invariants=True)
    d = e.value.diags[0]
    assert (d.file, d.line, d.col) == (PATH, 4, 10)
    assert d.msg == ('internal error: pass `normalize` broke its invariant: '
                     'cps call to `g` is not in normal form')


def test_the_emitter_checks_what_it_requires(monkeypatch):
    """A pass that is skipped before the emitter is caught at the emitter's
    input, even when the skipped pass declares no check."""
    without('boxing', monkeypatch)
    monkeypatch.setattr(pipeline, 'PASSES', [p for p in pipeline.PASSES if p.name != 'boxing'])
    with pytest.raises(pipeline.InvariantBroken) as e:
        pipeline.translate((HDR + 'cps void g(int *);\ncps void f(void) {\n  int x = 1;\n'
                            '  g(&x);\n}\n').encode(), PATH, check_invariants=True)
    d = e.value.diags[0]
    assert d.line == 4 and d.msg.startswith(
        'internal error: the input of the emitter lacks what it requires: `x` of cps function `f`')


def test_cpcc_check_invariants_reports_the_pass_and_fails(monkeypatch, tmp_path, capsys):
    without('normalize', monkeypatch)
    src = tmp_path / 't.cpc'
    src.write_text(HDR + NESTED)
    with pytest.raises(SystemExit) as e:
        driver.main(['--cpc-check-invariants', '-c', '-o', str(tmp_path / 't.o'), str(src)])
    assert e.value.code != 0
    err = capsys.readouterr().err
    assert '%s:4:10: error: internal error: pass `normalize` broke its invariant' % src in err


def test_without_the_checks_a_broken_pass_goes_unnoticed_by_the_pipeline(monkeypatch):
    without('rename', monkeypatch)
    out = pipeline.translate((HDR + 'cps void f(int i) { { int i = 2; cpc_yield(); i++; } }\n')
                             .encode(), PATH, stop_after='boxing')
    assert 'i__2' not in out


def test_a_pre_parse_stage_runs_before_the_first_parse(monkeypatch):
    """Text stages (for what Clang cannot parse) are declared in PRE_PARSE."""
    def arrows(text, ctx):
        return text.replace(b'=>', b'= ')
    stage = pipeline.TextStage('arrows', arrows, doc='`x => e` is an assignment')
    monkeypatch.setattr(pipeline, 'PRE_PARSE', [stage])
    src = (HDR + 'int f(void) { int x; x => 3; return x; }\n').encode()
    assert pipeline.stage_names()[0] == 'arrows'
    assert pipeline.translate(src, PATH, stop_after='arrows').endswith(
        'int f(void) { int x; x =  3; return x; }\n')
    assert 'x =  3;' in pipeline.translate(src, PATH, check_invariants=True)
    assert '| 1 | `arrows` (text, before parsing) |' in pipeline.describe()


def test_a_fixed_point_that_does_not_end_is_an_error(monkeypatch):
    monkeypatch.setattr(pipeline, 'MAX_ROUNDS', 1)
    with pytest.raises(fe.Diags) as e:
        emit('cps void g(int);\nint main(void) { int x = 1; '
             'cpc_spawn { cpc_spawn { g(x); g(x); } } return 0; }\n')
    assert e.value.diags[0].msg == 'spawned statements are nested too deeply to be outlined'


def test_the_documentation_shows_the_declared_pipeline():
    doc = open(os.path.join(TOP, 'docs', 'translator.md')).read()
    m = re.search(r'<!-- pipeline table: begin -->\n(.*?)<!-- pipeline table: end -->', doc, re.S)
    assert m, 'docs/translator.md has no pipeline table'
    assert m.group(1) == pipeline.describe()


def test_timings_charge_the_cpu_of_each_stage_and_of_parsing():
    times = {}
    pipeline.translate((HDR + NESTED).encode(), PATH, timings=times)
    # every stage that ran is charged, parsing apart (normalize edits: a parse)
    assert set(times) >= {'nested', 'parse', 'normalize', 'emit'}
    assert set(times) <= set(pipeline.stage_names()) | {'parse', 'emit', 'invariant checks',
                                                         pipeline.CPS_FREE_CHECK}
    assert all(v >= 0 for v in times.values())
    assert sum(times.values()) > 0


def test_the_passes_that_only_diagnose_report_their_errors_together():
    src = ('void k(int x);\n'
           'cps void k(int x) { cpc_yield(); }\n'
           'int nat(int x) { return x; }\n'
           'cps int (*p)(int) = nat;\n'
           'cps int tab[3];\n')
    with pytest.raises(fe.Diags) as e:
        pipeline.translate((HDR + src).encode(), PATH)
    assert [(d.line, d.msg) for d in e.value.diags] == [
        (3, 'conflicting declarations of `k`: declared cps here, but not cps at t.cpc:2:1'),
        (5, 'mixing cps and native function types: initialising an object of type '
            '`cps int(*)(int)` with `int (*)(int)`'),
        (6, '`cps` applies to functions only, but variable `tab` has type `cps int[3]`')]


def test_a_translation_leaves_the_garbage_collector_as_it_found_it():
    # (the objects older than the translation are frozen while it runs)
    seen = []
    real = pipeline.parse

    def parse(*args):
        seen.append((gc.isenabled(), gc.get_freeze_count() > 0))
        return real(*args)
    was = gc.isenabled()
    gc.enable()
    try:
        pipeline.parse = parse
        pipeline.translate((HDR + NESTED).encode(), PATH)
        assert seen and all(s == (False, True) for s in seen), seen
        assert gc.isenabled() and gc.get_freeze_count() == 0
        with pytest.raises(fe.Diags):
            pipeline.translate((HDR + 'int f(void) { return x; }\n').encode(), PATH)
        assert gc.isenabled() and gc.get_freeze_count() == 0
    finally:
        pipeline.parse = real
        if not was:
            gc.disable()


def test_parsing_the_main_file_alone_translates_as_full_parses(monkeypatch, tmp_path):
    # gen5k's shape, with the C library's headers: every pass after
    # `headers` edits, parsed again each time (libclang makes a preamble
    # for a file on disk only)
    gen = os.path.join(TOP, 'bench', 'translator', 'gen5k.py')
    src = subprocess.run([sys.executable, gen, '--lines', '400', '--headers', 'libc'],
                         stdout=subprocess.PIPE, check=True).stdout
    path = str(tmp_path / 'gen.cpc')
    with open(path, 'wb') as f:
        f.write(src)
    made = []
    real = reparse.Reparser.__init__

    def init(self, *args):
        made.append(self)
        real(self, *args)
    monkeypatch.setattr(reparse.Reparser, '__init__', init)
    outs = []
    for worth in (False, True):
        monkeypatch.setattr(reparse.Reparser, 'worth', classmethod(lambda cls, u: worth))
        outs.append(pipeline.translate(src, path))
    assert len(made) == 1
    assert outs[0] == outs[1]


def test_the_units_base_of_the_parses_in_place_is_frozen(monkeypatch, tmp_path):
    # the collections after each parse pass by the full parse that the
    # parses in place take the headers' cursors from (it outlives them)
    path = str(tmp_path / 'f.cpc')
    src = (HDR + '#include <stdio.h>\ncps int g(int x) { cpc_yield(); return x; }\n'
           'cps int f(int a) { printf("%d", g(a) + 1); return g(a) * 2; }\n').encode()
    with open(path, 'wb') as f:
        f.write(src)
    frozen = []
    real = pipeline.outlives_the_parses

    def outlives(u):
        real(u)
        frozen.append((u, gc.get_freeze_count(), u.top()[0] in gc.get_objects()))
    monkeypatch.setattr(pipeline, 'outlives_the_parses', outlives)
    monkeypatch.setattr(reparse.Reparser, 'worth', classmethod(lambda cls, u: True))
    made = []
    init = reparse.Reparser.__init__
    monkeypatch.setattr(reparse.Reparser, '__init__',
                        lambda self, *a: (made.append(self), init(self, *a))[1])
    pipeline.translate(src, path)
    [(u, count, listed)] = frozen
    assert u is made[0].base and count > 0 and not listed
    assert gc.get_freeze_count() == 0       # (undone when the translation ends)


def test_the_rounds_release_the_unit_they_start_from_at_their_first_parse(monkeypatch):
    # the collection after each round's parse goes through what is alive:
    # the unit the rounds started from is not (it was gen5k's largest part).
    # (A unit that the parses in place take the headers from lives on, frozen:
    # here every parse is a full one, as gen5k's.)
    monkeypatch.setattr(reparse.Reparser, 'worth', classmethod(lambda cls, u: False))
    from cpc.cursors import subtrees
    given = []
    real_rounds = pipeline.run_rounds

    def run_rounds(passes, u, ctx):
        given.append((u, len(subtrees(u.tu))))
        return real_rounds(passes, u, ctx)
    seen = []
    real_collect = pipeline.gc.collect

    def collect(*a):
        if given:
            seen.append(subtrees(given[0][0].tu) == [])
        return real_collect(*a)
    monkeypatch.setattr(pipeline, 'run_rounds', run_rounds)
    monkeypatch.setattr(pipeline.gc, 'collect', collect)
    src = ('cps int g(int);\ncps int f(int a) {\n  int t[2] = { a, a };\n'
           '  int *p = &t[0];\n  return g(g(*p)) + g(t[1]);\n}\n')
    pipeline.translate((HDR + src).encode(), PATH)
    assert len(given) == 1 and len(seen) >= 2 and all(seen), (given, seen)
