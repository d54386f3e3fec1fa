#!/usr/bin/env python3
"""Differential testing of cpcc on C programs written elsewhere.

    run.py [-j N] [--workdir DIR] [--levels L,L...] FILE.c...

Each program is built natively (`cc -O1`) and run: its stdout and exit status are the
reference.  cpsify.py then makes every function it can cps, and cpcc builds that at each level
(tests/csmith/run.py's levels: `-O1`, `-O1+yield` with `cpc_yield();` at the start of every cps
function, `-O0+env` with `--dataflow=environments`, `-O1+asan`); each build runs and must print
what the native one printed.  Failures take Csmith's classes (tests/csmith/run.py); a program
whose native build fails, or that cpsify refuses, is skipped with the reason.

The programs are not in the repository: fetch a suite and point this at it, for instance
gcc's torture tests (gcc/testsuite/gcc.c-torture/execute/*.c, also in llvm-test-suite's
SingleSource/Regression/C/gcc-c-torture), c-testsuite (tests/single-exec/*.c) or
llvm-test-suite's SingleSource/UnitTests.  docs/testing.md lists what such campaigns found and
which failures are expected (a cpcc diagnostic where C allows what CPC cannot do, programs
that rely on undefined behaviour).

The last line is `foreign: N passed, N skipped, N failed`; the status is 1 when something
failed.
"""
import argparse
import collections
import concurrent.futures as cf
import importlib.util
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cpsify  # noqa: E402


def _csmith_run():
    """tests/csmith/run.py, loaded by its path: this file has the same name."""
    path = os.path.join(HERE, '..', 'csmith', 'run.py')
    spec = importlib.util.spec_from_file_location('csmith_run', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


csmith_run = _csmith_run()

LEVELS = ['-O1', '-O1+yield', '-O0+env', '-O1+asan']
NATIVE_TIMEOUT = 10.0


def one(path, workdir, levels):
    """(name, 'ok' | 'skip' | 'fail', [(level, class, detail)] or reason)."""
    name = os.path.splitext(os.path.basename(path))[0]
    d = os.path.join(workdir, name)
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, 'native')
    rc, _, err, _ = csmith_run.sh([csmith_run.CC, '-w', '-std=gnu11', '-O1', '-o', exe, path,
                                   '-lm'], timeout=120, limit_memory=True)
    if rc != 0:
        return name, 'skip', 'the native build fails'
    # (in its work directory: some programs write files, tinycc's 40_stdio a fred.txt)
    native = csmith_run.sh([exe], cwd=d, timeout=NATIVE_TIMEOUT)
    if native[0] is None:
        return name, 'skip', 'the native program runs over %gs' % NATIVE_TIMEOUT
    with open(path, 'rb') as f:
        text = f.read()
    try:
        cpc = cpsify.transform(text)
    except cpsify.CpsifyError as e:
        return name, 'skip', 'cpsify: %s' % str(e).splitlines()[0]
    src = os.path.join(d, name + '.cpc')
    with open(src, 'wb') as f:
        f.write(cpc)
    failures = []
    for level in levels:
        ld = os.path.join(d, csmith_run.level_dir(level))
        prog, klass, detail = csmith_run.build_cpc(src, level, ld, ['-I', os.path.dirname(path),
                                                                    '-lm'])
        if prog is None:
            failures.append((level, klass, detail))
            continue
        env = dict(os.environ, **csmith_run.ASAN_ENV) if '+asan' in level else None
        result = csmith_run.sh([prog], cwd=ld, timeout=csmith_run.cpc_timeout(native[3]),
                               env=env)
        klass, detail = csmith_run.compare(native, result)
        if klass is not None:
            failures.append((level, klass, detail))
    return name, ('fail' if failures else 'ok'), failures


def campaign(argv, one, label, items, print_ok=False):
    """The command line of a campaign: `one(item, workdir, levels)` on each item (`items`
    names the positional arguments), the failures by class, and the last line
    `LABEL: N passed, N skipped, N failed`; the status is 1 when something failed."""
    ap = argparse.ArgumentParser(description=sys.modules['__main__'].__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(items, nargs='+')
    ap.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('--workdir')
    ap.add_argument('--levels', default=','.join(LEVELS))
    a = ap.parse_args(argv)
    levels = a.levels.split(',')
    tmp = None
    if a.workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix='cpc-%s-' % label)
        a.workdir = tmp.name
    counts = collections.Counter()
    classes = collections.Counter()
    with cf.ThreadPoolExecutor(a.jobs) as ex:
        for name, status, info in ex.map(lambda p: one(p, a.workdir, levels),
                                         getattr(a, items)):
            counts[status] += 1
            if status == 'skip':
                print('skip  %s: %s' % (name, info), flush=True)
            elif status == 'fail':
                for level, klass, detail in info:
                    classes[klass] += 1
                    print('FAIL  %s %s: %s\n%s\n' % (name, level, klass,
                                                     csmith_run.text(detail, 1500)), flush=True)
            elif print_ok:
                print('ok    %s' % name, flush=True)
    if classes:
        print('%s: failures by class: %s' % (label, ', '.join(
            '%s %d' % kv for kv in sorted(classes.items()))))
    print('%s: %d passed, %d skipped, %d failed' % (label, counts['ok'], counts['skip'],
                                                    counts['fail']))
    return 1 if counts['fail'] else 0


def main(argv=None):
    return campaign(argv, one, 'foreign', 'files')


if __name__ == '__main__':
    sys.exit(main())
