"""The corpus harness (tests/translator/corpus/run_corpus.py) and its yield transformation."""
import os
import subprocess
import sys

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
CORPUS = os.path.join(TOP, 'tests', 'translator', 'corpus')
sys.path.insert(0, CORPUS)
import run_corpus as run  # noqa: E402
import yieldify  # noqa: E402


def test_yieldify_inserts_a_yield_in_cps_functions_only():
    src = (b'#include "corpus.h"\nCPS int f(int x) { return x; }\n'
           b'static int g(int x) { return x; }\n')
    out = yieldify.yieldify(src, 'prog.c', (CORPUS,))
    assert b'CPS int f(int x) { cpc_yield(); return x; }' in out
    assert b'static int g(int x) { return x; }' in out


def test_yieldify_finds_the_body_of_an_old_style_definition():
    src = b'#include "corpus.h"\nCPS int f(a)\n    int a;\n{\n    return a;\n}\n'
    out = yieldify.yieldify(src, 'prog.c', (CORPUS,))
    assert b'int a;\n{ cpc_yield();\n' in out


def test_yieldify_puts_the_yield_after_the_local_label_declarations():
    src = (b'#include "corpus.h"\nCPS int f(int x) { __label__ a; __label__ b, c; '
           b'goto a; a: return x; }\n')
    out = yieldify.yieldify(src, 'prog.c', (CORPUS,))
    assert b'{ __label__ a; __label__ b, c; cpc_yield(); goto a;' in out


def test_yieldify_leaves_prototypes_alone():
    src = b'#include "corpus.h"\nCPS int f(int);\nCPS int f(int x) { return x; }\n'
    assert yieldify.yieldify(src, 'prog.c', (CORPUS,)).count(b'cpc_yield') == 1


def test_cpc_text_makes_main_a_spawned_cps_function():
    out = run.cpc_text(b'#include "corpus.h"\nint main(void)\n{\n    return 3;\n}\n', False)
    assert b'CPS int corpus_main(void)' in out
    assert b'cpc_spawn corpus_start__();' in out


def test_known_failure_globs_select_variants():
    known = [('p', 'yield-*', 'cls', '')]
    assert run.known_entry(known, 'p', 'yield-O2-lifting-packed')
    assert not run.known_entry(known, 'p', 'plain-O2-lifting-packed')
    assert not run.known_entry(known, 'q', 'yield-O2-lifting-packed')


def corpus_run(tmp_path, program, known_line):
    known = tmp_path / 'known.txt'
    known.write_text(known_line)
    return subprocess.run([sys.executable, os.path.join(CORPUS, 'run_corpus.py'), 'fast', '-q',
                           '--programs', program, '--variants', 'plain-O0-lifting-aligned',
                           '--known', str(known), '--workdir', str(tmp_path / 'w')],
                          capture_output=True, text=True)


def test_listed_program_that_passes_fails_the_run(tmp_path):
    r = corpus_run(tmp_path, 'g_op_add_int', 'g_op_add_int * wrong-output stale entry\n')
    assert r.returncode == 1
    assert 'passes, but known-failures.txt lists it' in r.stdout


def test_unlisted_passing_program_passes_the_run(tmp_path):
    r = corpus_run(tmp_path, 'g_op_add_int', '')
    assert r.returncode == 0, r.stdout
    assert 'corpus: 1 passed, 0 expected failures, 0 failed' in r.stdout


def test_yieldify_skips_a_native_function_returning_a_cps_function_pointer():
    src = (b'#include "corpus.h"\nCPS int add(int a) { return a; }\n'
           b'CPS int (*pick(void))(int) { return add; }\n')
    out = yieldify.yieldify(src, 'prog.c', (CORPUS,))
    assert out.count(b'cpc_yield') == 1
    assert b'CPS int (*pick(void))(int) { return add; }' in out
