"""The line table of every program of the translator's corpus and of lib/
against its source (linetable.py says what is checked), and the order in
which those programs and tests/lib's run their lines (exec_trace.py under
gdb, linetable.executed_order).

Each program is compiled by cpcc at -O0 -g (to an object: the line table is
the compiler's, linking adds nothing).  A corpus program is plain C, so gcc
compiles it too: a violation that gcc's own table of the same source shows
(the lexical model of the source is a model) is not counted against cpcc.
"""
import concurrent.futures as cf
import os
import re
import subprocess
import sys
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
CPCC = os.path.join(TOP, 'bin', 'cpcc')
CORPUS = os.path.join(TOP, 'tests', 'translator', 'corpus')
PROGRAMS = os.path.join(TOP, 'tests', 'translator', 'programs')
LIB = os.path.join(TOP, 'lib')
JOBS = int(os.environ.get('CPC_TEST_JOBS', '2'))
sys.path.insert(0, HERE)
sys.path.insert(0, CORPUS)
import linetable  # noqa: E402
import run_corpus as corpus_run  # noqa: E402


def compile_object(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stderr


def corpus_flags(name):
    src = open(os.path.join(CORPUS, name + '.c'), 'rb').read()
    return [f for f in corpus_run.directive(src, 'corpus-flags') if f != '-Werror']


def cpcc_corpus(names, tmp):
    """Compile corpus programs NAMES (of the same flags) with cpcc into
    tmp/NAME.o, several in one cpcc (which starts Python and Clang once);
    {name: error text} of those that failed."""
    flags = corpus_flags(names[0])
    for n in names:
        with open(os.path.join(tmp, n + '.cpc'), 'wb') as fh:
            fh.write(corpus_run.cpc_text(open(os.path.join(CORPUS, n + '.c'), 'rb').read(),
                                         False))
    base = [CPCC, '-g', '-O0', '-std=gnu11', '-DCORPUS_CPC', '-I', CORPUS, *flags, '-c']
    if len(names) > 1:
        r = subprocess.run(base + [n + '.cpc' for n in names], cwd=tmp, capture_output=True,
                           text=True)
        if r.returncode == 0:
            return {}
    errors = {}
    for n in names:
        rc, err = compile_object(base + ['-o', os.path.join(tmp, n + '.o'),
                                         os.path.join(tmp, n + '.cpc')])
        if rc:
            errors[n] = 'cpcc: ' + err[-2000:]
    return errors


def corpus_violations(name, tmp):
    """cpcc's violations on corpus program NAME (compiled by cpcc_corpus)
    that gcc's table of the same source does not show, or an error text."""
    path = os.path.join(CORPUS, name + '.c')
    native = os.path.join(tmp, name + '.native.o')
    rc, err = compile_object(['cc', '-g', '-O0', '-std=gnu11', '-I', CORPUS, *corpus_flags(name),
                              '-c', '-o', native, path])
    if rc:
        return 'native build: ' + err[-2000:]
    expected = {b[:2] for b in linetable.check(path, native)}
    return [b for b in linetable.check(os.path.join(tmp, name + '.cpc'),
                                       os.path.join(tmp, name + '.o'))
            if b[:2] not in expected]


def cpc_violations(path, tmp, *flags):
    """cpcc's violations on CPC file `path`.  Without gcc's table of the
    same source for reference, the order of the lines is not checked: gcc
    lays out the jumps of loops and `return`s at -O0 in orders the lexical
    model does not predict."""
    src = open(path, 'rb').read()
    # (the program's other source files, in its cpcc-flags, are not this
    # file's object)
    flags = list(flags) + [f.replace('{dir}', os.path.dirname(path))
                           for f in corpus_run.directive(src, 'cpcc-flags')
                           if not f.endswith(('.c', '.cpc'))]
    obj = os.path.join(tmp, os.path.basename(path) + '.o')
    rc, err = compile_object([CPCC, '-g', '-O0', *flags, '-c', '-o', obj, path])
    if rc:
        return 'cpcc: ' + err[-2000:]
    return [b for b in linetable.check(path, obj) if b[0] != 'out-of-order']


def report(results):
    msgs = []
    for name, bad in sorted(results.items()):
        if isinstance(bad, str):
            msgs.append('%s: %s' % (name, bad))
        for b in bad if not isinstance(bad, str) else ():
            msgs.append('%s:%d: %s: %s%s' % (name, b[1], b[0], b[2],
                                             ' (after line %d)' % b[3] if len(b) > 3 else ''))
    return msgs


def run_all(jobs):
    results = {}
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(JOBS) as ex:
        futs = {ex.submit(fn, *args, tmp): name for name, fn, args in jobs}
        for f in cf.as_completed(futs):
            results[futs[f]] = f.result()
    return report(results)


BATCH = 20


def test_every_corpus_program_has_its_lines_in_the_line_table():
    names = corpus_run.programs()
    groups = {}
    for n in names:
        groups.setdefault(tuple(corpus_flags(n)), []).append(n)
    batches = [g[i:i + BATCH] for g in groups.values() for i in range(0, len(g), BATCH)]
    results = {}
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(JOBS) as ex:
        for errors in ex.map(lambda b: cpcc_corpus(b, tmp), batches):
            results.update(errors)
        todo = [n for n in names if n not in results]
        for n, bad in zip(todo, ex.map(lambda n: corpus_violations(n, tmp), todo)):
            results[n] = bad
    msgs = report(results)
    assert not msgs, '\n'.join(msgs)


def test_every_cpc_program_and_library_file_has_its_lines_in_the_line_table():
    jobs = [(f, lambda p, tmp: cpc_violations(p, tmp), (os.path.join(PROGRAMS, f),))
            for f in sorted(os.listdir(PROGRAMS)) if f.endswith('.cpc')]
    for sub in ('', 'qemu'):
        d = os.path.join(LIB, sub)
        jobs += [(os.path.join('lib', sub, f),
                  lambda p, tmp: cpc_violations(p, tmp, '-I' + LIB, '-I' + os.path.dirname(p)),
                  (os.path.join(d, f),)) for f in sorted(os.listdir(d)) if f.endswith('.cpc')]
    msgs = run_all(jobs)
    assert not msgs, '\n'.join(msgs)


# ---- the order the lines run in ------------------------------------------------------

TRACE = os.path.join(HERE, 'exec_trace.py')
LIB_TESTS = os.path.join(TOP, 'tests', 'lib')


def traced_violations(exe_cmd, sources, tmp, name, args=()):
    """Build with `exe_cmd` (cpcc ... -o EXE), run EXE under exec_trace.py
    tracing `sources`, and check the order the lines ran in."""
    exe = os.path.join(tmp, name)
    rc, err = compile_object(exe_cmd + ['-o', exe])
    if rc:
        return 'cpcc: ' + err[-2000:]
    trace = exe + '.trace'
    env = dict(os.environ, CPC_TRACE_FILES=':'.join(sources), CPC_TRACE_OUT=trace)
    try:
        r = subprocess.run(['gdb', '-nx', '-batch', '-x', TRACE, '--args', exe, *args],
                           env=env, capture_output=True, text=True, timeout=120, cwd=tmp)
    except subprocess.TimeoutExpired:
        return 'gdb timed out'
    if not os.path.exists(trace):
        return 'no trace: ' + (r.stdout + r.stderr)[-2000:]
    events = linetable.read_trace(trace)
    if not events:
        return 'no line of %s ran' % ', '.join(os.path.basename(s) for s in sources)
    return [('%s in %s' % (b[1], os.path.relpath(b[0], TOP)),) + b[2:]
            for b in linetable.executed_order(sources, events)]


def program_trace(path, tmp):
    src = open(path, 'rb').read()
    flags = [f.replace('{dir}', os.path.dirname(path))
             for f in corpus_run.directive(src, 'cpcc-flags')]
    name = os.path.splitext(os.path.basename(path))[0]
    return traced_violations([CPCC, '-g', '-O0', *flags, path], [path], tmp, name)


def lib_objects(tmp):
    """lib/*.cpc compiled once at -O0 -g into tmp/lib (their sources), or an
    error text."""
    lib = [os.path.join(LIB, f) for f in sorted(os.listdir(LIB)) if f.endswith('.cpc')]
    out = os.path.join(tmp, 'lib')
    os.makedirs(out)
    r = subprocess.run([CPCC, '-g', '-O0', '-I', LIB, '-c', *lib], cwd=out, capture_output=True,
                       text=True)
    if r.returncode:
        return lib, 'cpcc lib/: ' + r.stderr[-2000:]
    return lib, [os.path.join(out, f) for f in sorted(os.listdir(out)) if f.endswith('.o')]


def lib_trace(path, lib, objects, tmp):
    """A tests/lib program linked with the library compiled at -O0: the
    order of the lines of lib/ (and of the program) as it runs them."""
    text = open(path).read()
    m = re.search(r'test: args (.*?)(?:\*/|$)', text, re.M)
    name = os.path.splitext(os.path.basename(path))[0]
    cmd = [CPCC, '-g', '-O0', '-I', LIB, '-I', LIB_TESTS, path,
           os.path.join(LIB_TESTS, 'support', 'join.cpc'), *objects]
    return traced_violations(cmd, [path] + lib, tmp, name,
                             m.group(1).split() if m else ())


# Places where gcc's -O0 code of the generated C runs a row of an earlier
# line that are known and not fixed (each fails the test once fixed, to be
# taken off the list): none.  (What keeps the order: emit/preamble.py's
# -O0 attributes, boxing.py's environment set-up on one line.)
KNOWN_OUT_OF_ORDER = set()


def test_every_cpc_program_and_library_file_runs_its_lines_in_source_order():
    # (each program run under gdb, a breakpoint on every row of its line
    # table: within one invocation, a line runs after a later one only
    # where C goes back -- loops, gotos, a statement on several lines; the
    # library through the programs of tests/lib)
    results = {}
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(JOBS) as ex:
        lib, objects = lib_objects(tmp)
        futs = {ex.submit(program_trace, os.path.join(PROGRAMS, f), tmp): f
                for f in sorted(os.listdir(PROGRAMS)) if f.endswith('.cpc')}
        if isinstance(objects, str):
            results['lib'] = objects
        else:
            futs.update({ex.submit(lib_trace, os.path.join(LIB_TESTS, f), lib, objects, tmp):
                         os.path.join('tests', 'lib', f)
                         for f in sorted(os.listdir(LIB_TESTS)) if f.endswith('.cpc')})
        for f in cf.as_completed(futs):
            results[futs[f]] = f.result()
    msgs = report(results)
    new = sorted(set(msgs) - KNOWN_OUT_OF_ORDER)
    assert not new, '\n'.join(new)
    assert KNOWN_OUT_OF_ORDER - set(msgs) == set(), \
        'fixed (take them off KNOWN_OUT_OF_ORDER): ' + '\n'.join(KNOWN_OUT_OF_ORDER - set(msgs))


def test_a_block_declaring_a_variable_length_array_may_have_code_on_its_closing_brace():
    # (C restores the stack there; a cps function frees the array's heap copy)
    toks = linetable.tokens('{ char v[n]; int w[8]; v[0] = w[n]; }')[0]
    assert linetable.declares_vla(toks)
    toks = linetable.tokens('{ int w[8]; char c = w[n]; long s = sizeof(int[n]); }')[0]
    assert not linetable.declares_vla(toks)
