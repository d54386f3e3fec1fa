#!/usr/bin/env python3
"""Differential tests of cpcc on the corpus of C programs (tests/translator/corpus/*.c).

Each program is plain C whose functions are marked `CPS` (corpus.h): `cc prog.c` builds the
reference; for CPC, `main` becomes the cps function `corpus_main`, which a new `main` spawns
before `cpc_main_loop()`, and `cpcc -DCORPUS_CPC` builds that.  Both run; stdout and the exit
status must be equal.  A variant of a program is

    {plain|yield}-O{0|2}-{lifting|frame|environments}-{packed|aligned}

where `yield` first inserts `cpc_yield();` at the start of every cps function (yieldify.py), so
every cps call suspends and resumes through the scheduler.  Every translation checks each
pass's invariant (--cpc-check-invariants), so a miscompilation names the pass that made it.

Directives in a program's comments:
    corpus-flags: ...    extra flags for both builds (e.g. -Wall -Werror)
    corpus-args: ...     command-line arguments of the run
    corpus-own-main      the program writes its own CPC `main` under #ifdef CORPUS_CPC

known-failures.txt lists what fails today: `PROGRAM VARIANT-GLOB CLASS reason...`.  A listed
failure is expected; a listed (program, variant) that passes FAILS the run (the list can only
shrink); any other failure fails the run.

Modes:
    run_corpus.py fast    every hand-written program and about one generated program in seven,
                          each in one variant picked by its name (make test)
    run_corpus.py full    every program in all 24 variants (make fuzz)
    run_corpus.py full --programs a,b --variants 'yield-*'    a selection
    --write-known FILE   write the failures of this run in the known-failures format
The last line is `corpus: N passed, N expected failures, N failed`.
"""
import argparse
import concurrent.futures as cf
import fnmatch
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..', '..'))
sys.path.insert(0, HERE)
import yieldify  # noqa: E402

CC = os.environ.get('CC', 'cc')
CPCC = os.environ.get('CPCC', os.path.join(TOP, 'bin', 'cpcc'))
KNOWN = os.path.join(HERE, 'known-failures.txt')
RUN_TIMEOUT = 10.0
FAST_GENERATED_STRIDE = 7
COMPILE_TIMEOUT = 300.0

VARIANTS = ['%s-%s-%s-%s' % (y, o, d, f)
            for y in ('plain', 'yield') for o in ('O0', 'O2')
            for d in ('lifting', 'frame', 'environments') for f in ('packed', 'aligned')]

EPILOGUE = b'''
#ifdef CORPUS_CPC
/* run_corpus.py: the program's main, spawned as a cps thread */
static int corpus_status__;
static cps void corpus_start__(void) { corpus_status__ = corpus_main(); }
int main(void)
{
    cpc_spawn corpus_start__();
    cpc_main_loop();
    fflush(stdout);
    return corpus_status__;
}
#endif
'''
MAIN_RE = re.compile(rb'^(?:CPS\s+)?int\s+main\s*\(\s*void\s*\)', re.M)


def sh(cmd, cwd=None, timeout=None):
    """(returncode or None on timeout, stdout bytes, stderr bytes)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        return None, out, err


def directive(src, name):
    m = re.search(rb'%s:[ \t]*([^*\n]*)' % name.encode(), src)
    return m.group(1).decode().strip().split() if m else []


def programs():
    return sorted(f[:-2] for f in os.listdir(HERE) if f.endswith('.c'))


def cpc_text(src, yielding):
    """The CPC form of a program's text."""
    if b'corpus-own-main' not in src:
        src, n = MAIN_RE.subn(b'CPS int corpus_main(void)', src, count=1)
        if n != 1:
            raise RuntimeError('no `int main(void)` (or corpus-own-main) in the program')
        src = src.rstrip(b'\n') + b'\n' + EPILOGUE
    if yielding:
        src = yieldify.yieldify(src, 'prog.c', (HERE,))
    return src


def read_known(path=KNOWN):
    known = []
    if not os.path.exists(path):
        return known
    for n, line in enumerate(open(path), 1):
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        parts = line.split(None, 3)
        if len(parts) < 3:
            raise SystemExit('%s:%d: expected `PROGRAM VARIANT-GLOB CLASS reason`' % (path, n))
        known.append((parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else ''))
    return known


def known_entry(known, prog, variant):
    for k in known:
        if k[0] == prog and fnmatch.fnmatchcase(variant, k[1]):
            return k
    return None


class Program:
    """One corpus program: its source, flags, and its reference output (built once)."""

    def __init__(self, name, workdir):
        self.name = name
        self.path = os.path.join(HERE, name + '.c')
        self.src = open(self.path, 'rb').read()
        self.flags = directive(self.src, 'corpus-flags')
        self.args = directive(self.src, 'corpus-args')
        self.dir = os.path.join(workdir, name)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self._native = None
        self._lock = threading.Lock()

    def native(self):
        with self._lock:
            return self._build_native()

    def _build_native(self):
        if self._native is None:
            exe = os.path.join(self.dir, 'native')
            rc, out, err = sh([CC, '-O0', '-std=gnu11', '-I', HERE] + self.flags +
                              ['-o', exe, self.path, '-lm'], timeout=COMPILE_TIMEOUT)
            if rc != 0:
                raise RuntimeError('native build failed:\n' + err.decode('utf-8', 'replace'))
            self._native = sh([exe] + self.args, timeout=RUN_TIMEOUT)
            if self._native[0] is None:
                raise RuntimeError('native program does not finish in %ds' % RUN_TIMEOUT)
        return self._native


def classify_build(rc, log):
    if rc is None:
        return 'translator-timeout'
    if 'broke its invariant' in log or 'lacks what it requires' in log:
        return 'translator-invariant'
    if 'Traceback (most recent call last)' in log or 'internal error' in log or rc < 0:
        return 'translator-crash'
    if re.search(r'undefined reference|ld returned|collect2', log):
        return 'link-error'
    if 'cc1:' in log or '\u2018' in log or re.search(r'\.cpc\.c:\d+', log):
        return 'gcc-error'
    return 'cpcc-error'


def run_variant(p, variant):
    """Return (klass or None, detail)."""
    y, o, d, f = variant.split('-')
    try:
        nrc, nout, _ = p.native()
        text = cpc_text(p.src, y == 'yield')
    except Exception as e:      # a harness or program problem: never hidden
        return 'harness', '%s: %s' % (type(e).__name__, e)
    vd = os.path.join(p.dir, variant)
    os.makedirs(vd, exist_ok=True)
    src = os.path.join(vd, p.name + '.cpc')
    with open(src, 'wb') as fh:
        fh.write(text)
    exe = os.path.join(vd, 'prog')
    cmd = [CPCC, '--cpc-check-invariants', '-' + o, '--dataflow=' + d, '--frames=' + f,
           '-std=gnu11', '-DCORPUS_CPC',
           '-I', HERE, '--save-temps', '-o', exe, src, '-lm'] + p.flags
    rc, out, err = sh(cmd, cwd=vd, timeout=COMPILE_TIMEOUT)
    log = (out + err).decode('utf-8', 'replace')
    if rc != 0:
        return classify_build(rc, log), log[-3000:]
    crc, cout, cerr = sh([exe] + p.args, timeout=max(RUN_TIMEOUT, 1.0))
    if crc is None:
        return 'timeout', 'killed after %ds' % RUN_TIMEOUT
    if crc < 0:
        return 'runtime-crash', 'signal %d\n%s' % (-crc, cerr.decode('utf-8', 'replace')[-1500:])
    if crc != nrc or cout != nout:
        return 'wrong-output', 'native: status %d, stdout %r\ncpc:    status %d, stdout %r' % (
            nrc, nout[-600:], crc, cout[-600:])
    return None, ''


def first_line(detail):
    for line in detail.splitlines():
        m = re.search(r'(error: .*|internal error.*|signal \d+|CHECK failed.*|undefined '
                      r'reference.*|\w+Error.*)', line)
        if m:
            return m.group(1)[:150]
    return (detail.splitlines() or [''])[0][:150]


# --write-known names a failure's class from its symptom (the first pattern found in the
# failure's detail, or the program's name); else the class is the kind of failure.
SYMPTOMS = [
    (r'^issue_compound_literal', 'compound-literal-lifetime'),
    (r'^issue_cleanup|^gnu_cleanup', 'cleanup-runs-at-suspension'),
    (r'^issue_func_name', 'func-name'),
    (r'^issue_cps_function_typedef', 'cps-through-function-typedef'),
    (r'^gnu_typeof', 'typeof-of-cps-call'),
    (r'^c11_6_7_5_alignment', 'alignas-lost-in-frame'),
    (r'Unknown template argument kind', 'declarator-crash'),
    (r'too many arguments to function .*__cps', 'unprototyped-cps-declaration'),
    (r'implicit declaration of function', 'cps-call-in-sizeof'),
    (r'cannot split this declaration', 'declaration-split'),
    (r'cannot be named at file scope', 'block-scope-type-live'),
    (r'array type .* is not assignable|flexible array member', 'array-typed-parameter'),
    (r'conflicting declarations of', 'spawn-before-prototype'),
    (r'too few arguments to function call', 'need-cont-macro-in-spawn'),
    (r'^issue_boxed', 'boxed-cps-function-pointer'),
    (r'expected expression before', 'macro-at-cps-call-site'),
    (r'overlapping edits', 'multiple-declarators'),
    (r'defined but not used \[-Werror=unused-label\]', 'unused-label'),
    (r'cps call in an unsupported expression', 'cps-call-in-unsupported-expression'),
    (r'redefinition of .struct t__frame|cpc_k|cpc_resume', 'generated-name-collision'),
    (r'^issue_implicit_int', 'implicit-int'),
    (r'RecursionError', 'recursion-depth'),
    (r'translator-timeout', 'translation-time'),
]


def symptom_class(prog, klass, detail):
    for pattern, name in SYMPTOMS:
        if re.search(pattern, prog) or re.search(pattern, detail, re.M):
            return name
    return klass


def write_known(path, failures, all_variants):
    """failures: {(prog, variant): (klass, detail)}; one line per program when all the
    variants failed alike, else one per variant."""
    by_prog = {}
    for (prog, variant), (k, d) in failures.items():
        by_prog.setdefault(prog, {})[variant] = (symptom_class(prog, k, k + '\n' + d), d)
    with open(path, 'w') as fh:
        for prog in sorted(by_prog):
            vs = by_prog[prog]
            if set(vs) == set(VARIANTS) and len({k for k, _ in vs.values()}) == 1:
                k, d = next(iter(vs.values()))
                fh.write('%s * %s %s\n' % (prog, k, first_line(d)))
                continue
            for v in sorted(vs):
                fh.write('%s %s %s %s\n' % (prog, v, vs[v][0], first_line(vs[v][1])))


def fast_subset(names):
    """The programs of `make test`: every hand-written one, one generated program in
    FAST_GENERATED_STRIDE (g_*.c), none of the very large ones (g_big_*.c, slow to translate)."""
    return [n for n in names if not n.startswith('g_') or
            (not n.startswith('g_big_') and stable_hash(n) % FAST_GENERATED_STRIDE == 0)]


def stable_hash(name):
    """A program's own number: the fast subset and its variants do not change when
    programs are added."""
    return zlib.crc32(name.encode())


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument('mode', choices=['fast', 'full'])
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('--workdir', default=os.path.join(TOP, 'build', 'corpus'))
    ap.add_argument('--programs', help='comma-separated names (default: all)')
    ap.add_argument('--variants', default='*', help='glob over variant names')
    ap.add_argument('--known', default=KNOWN, metavar='FILE', help='the known failures')
    ap.add_argument('--write-known', metavar='FILE')
    ap.add_argument('-q', action='store_true', help='print failures only')
    args = ap.parse_args(argv)
    args.workdir = os.path.abspath(args.workdir)

    names = programs()
    if args.programs:
        wanted = args.programs.split(',')
        missing = [n for n in wanted if n not in names]
        if missing:
            raise SystemExit('no such program: %s' % ', '.join(missing))
        names = wanted
    variants = [v for v in VARIANTS if fnmatch.fnmatchcase(v, args.variants)]
    if args.mode == 'fast':
        if not args.programs:
            names = fast_subset(names)
        jobs = [(n, variants[stable_hash(n) // 7 % len(variants)]) for n in names]
    else:
        jobs = [(n, v) for n in names for v in variants]
    known = read_known(args.known)
    progs = {n: Program(n, args.workdir) for n in names}
    run_variants = {}
    for n, v in jobs:
        run_variants.setdefault(n, []).append(v)

    counts = {'passed': 0, 'xfail': 0, 'failed': 0}
    xfail_classes, fail_classes = {}, {}
    failures = {}
    t0 = time.monotonic()
    with cf.ThreadPoolExecutor(max_workers=args.j) as ex:
        futs = {ex.submit(run_variant, progs[n], v): (n, v) for n, v in jobs}
        for fut in cf.as_completed(futs):
            n, v = futs[fut]
            klass, detail = fut.result()
            entry = known_entry(known, n, v)
            if klass is not None:
                failures[(n, v)] = (klass, detail)
            if klass is None and entry is None:
                counts['passed'] += 1
                if not args.q:
                    print('ok    %s %s' % (n, v))
            elif klass is not None and entry is not None:
                counts['xfail'] += 1
                xfail_classes[entry[2]] = xfail_classes.get(entry[2], 0) + 1
                if not args.q:
                    print('xfail %s %s (%s)' % (n, v, entry[2]))
            elif klass is None:
                counts['failed'] += 1
                fail_classes['unexpected-pass'] = fail_classes.get('unexpected-pass', 0) + 1
                print('FAIL  %s %s: passes, but known-failures.txt lists it (%s): remove the '
                      'entry' % (n, v, entry[2]))
            else:
                counts['failed'] += 1
                fail_classes[klass] = fail_classes.get(klass, 0) + 1
                print('FAIL  %s %s: %s\n%s\n' % (n, v, klass, detail))
            sys.stdout.flush()
    if args.write_known:
        write_known(args.write_known, failures, run_variants)
    print('corpus: expected failures by class: %s' % (
        ', '.join('%s %d' % kv for kv in sorted(xfail_classes.items())) or 'none'))
    if fail_classes:
        print('corpus: failures by class: %s' % ', '.join(
            '%s %d' % kv for kv in sorted(fail_classes.items())))
    print('corpus: %d passed, %d expected failures, %d failed (%d programs, %.0fs)' % (
        counts['passed'], counts['xfail'], counts['failed'], len(names),
        time.monotonic() - t0))
    return 1 if counts['failed'] else 0


if __name__ == '__main__':
    sys.exit(main())
