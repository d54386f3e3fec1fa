#!/usr/bin/env python3
"""Run the translator's CPC programs: each programs/*.cpc is compiled by cpcc at -O0
and -O2 with -Wall -Wextra -Werror and the declaration warnings of
DECLARATION_WARNINGS (so the generated C must not warn), and
at -O2 with --dataflow=lifting (-O2's default is frame-resident variables)
and --dataflow=environments (eCPC's variant), run,
and its stdout and exit status compared with programs/NAME.expected (a last
line `exit: N` gives a non-zero status).  Directives in the source:
Every translation runs with --cpc-check-invariants.  `cpcc-flags: ...` extra flags
(`{dir}` is the program's directory),
`max-rss-kb: N` a memory bound, `gcc-reference: yes` (a plain C program) the
expected output must also be what the program prints when gcc compiles it as
C (GCC's own nested functions, for instance).
Then each diagnostics/*.cpc must fail with exactly the errors listed in its
`expect-error: ...` comments, each at the line of its comment."""
import concurrent.futures
import os
import re
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
CPCC = os.path.join(TOP, 'bin', 'cpcc')


def directive(src, name):
    m = re.search(r'%s:\s*([^*\n]*)' % name, src)
    return m.group(1).strip() if m else None


CONFIGS = (['-O0'], ['-O2'], ['-O2', '--dataflow=lifting'], ['-O2', '--dataflow=environments'])
# Warnings about declarations that projects build with (QEMU's among them): the
# declarations the translation adds must not set them off where the source does not.
DECLARATION_WARNINGS = ['-Wredundant-decls', '-Wnested-externs']


def run_program(path, cfg, tmp):
    name = os.path.splitext(os.path.basename(path))[0]
    src = open(path).read()
    opt = ' '.join(cfg)
    exe = os.path.join(tmp, '%s%s' % (name, ''.join(cfg).replace('-', '_').replace('=', '_')))
    flags = [f.replace('{dir}', os.path.dirname(path))
             for f in (directive(src, 'cpcc-flags') or '').split()]
    cmd = [CPCC, '--cpc-check-invariants'] + cfg + ['-Wall', '-Wextra', '-Werror'] + \
        DECLARATION_WARNINGS + flags + ['-o', exe, path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return 'FAIL %s %s: compile\n%s' % (name, opt, r.stderr[-3000:])
    exp = open(os.path.splitext(path)[0] + '.expected').read()
    status = 0
    m = re.search(r'^exit: (\d+)\n?\Z', exp, re.M)
    if m:
        status = int(m.group(1))
        exp = exp[:m.start()]
    timed = ['/usr/bin/time', '-f', 'MAXRSS %M'] if os.path.exists('/usr/bin/time') else []
    try:
        r = subprocess.run(timed + [exe], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return 'FAIL %s %s: timeout' % (name, opt)
    if r.stdout != exp or r.returncode != status:
        return 'FAIL %s %s: output (status %d)\n--- got\n%s--- expected\n%s%s' % (
            name, opt, r.returncode, r.stdout[-2000:], exp[-2000:], r.stderr[-1000:])
    bound = directive(src, 'max-rss-kb')
    if bound and timed:
        m = re.search(r'MAXRSS (\d+)', r.stderr)
        if m and int(m.group(1)) > int(bound):
            return 'FAIL %s %s: max RSS %s KB > %s KB' % (name, opt, m.group(1), bound)
    return None


def run_gcc_reference(path, tmp):
    """The program compiled by gcc as C prints its .expected output."""
    name = os.path.splitext(os.path.basename(path))[0]
    exe = os.path.join(tmp, name + '_gcc')
    cmd = [os.environ.get('CC', 'gcc'), '-x', 'c', '-std=gnu11', '-O1',
           '-Wl,--no-warn-execstack', '-o', exe, path]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return 'FAIL %s gcc reference: compile\n%s' % (name, r.stderr[-3000:])
    exp = open(os.path.splitext(path)[0] + '.expected').read()
    exp = re.sub(r'^exit: (\d+)\n?\Z', '', exp, flags=re.M)
    r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    if r.stdout != exp:
        return 'FAIL %s gcc reference: gcc prints\n%s--- expected\n%s' % (name, r.stdout[-2000:],
                                                                         exp[-2000:])
    return None


def run_diag(path, tmp):
    """Every `expect-error: MSG` comment on line L must be matched by an error
    `NAME:L:COL: error: ...` containing MSG, and every error must be expected
    (several comments on one line expect several errors there) and reported
    once."""
    name = os.path.basename(path)
    wants = [(n, w) for n, line in enumerate(open(path), 1)
             for w in re.findall(r'expect-error:\s*(.*?)\s*(?:\*/|$)', line)]
    r = subprocess.run([CPCC, '--cpc-check-invariants', '-c', '-o', os.path.join(tmp, 'x.o'), path],
                       capture_output=True, text=True, cwd=os.path.dirname(path))
    if r.returncode == 0:
        return 'FAIL %s: compiled without error' % name
    if 'Traceback' in r.stderr:
        return 'FAIL %s: Python traceback\n%s' % (name, r.stderr[-3000:])
    if not wants:
        return 'FAIL %s: no expect-error comment' % name
    errors = [(m.group(0), os.path.basename(m.group(1)), int(m.group(2)))
              for m in re.finditer(r'^(\S[^:\n]*):(\d+):\d+: error: .*$', r.stderr, re.M)]
    # (a line of the source that cpcc quotes under its message starts with spaces)
    for n, w in wants:
        if not any(f == name and l == n and w in e for e, f, l in errors):
            return 'FAIL %s: missing message %r at line %d in\n%s' % (name, w, n, r.stderr)
    for e, f, l in errors:
        if not any(f == name and l == n and w in e for n, w in wants):
            return 'FAIL %s: unexpected error\n%s' % (name, e)
    repeated = [e for i, (e, f, l) in enumerate(errors) if e in [x for x, _, _ in errors[:i]]]
    if repeated:
        return 'FAIL %s: error reported twice\n%s' % (name, repeated[0])
    return None


def main():
    only = sys.argv[1:]
    progs = sorted(os.path.join(HERE, 'programs', f) for f in os.listdir(os.path.join(HERE, 'programs'))
                   if f.endswith('.cpc'))
    diags = sorted(os.path.join(HERE, 'diagnostics', f) for f in os.listdir(os.path.join(HERE, 'diagnostics'))
                   if f.endswith('.cpc'))
    if only:
        progs = [p for p in progs if any(o in p for o in only)]
        diags = [p for p in diags if any(o in p for o in only)]
    fails = []
    n = 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(2) as ex:
        jobs = [ex.submit(run_program, p, c, tmp) for p in progs for c in CONFIGS]
        jobs += [ex.submit(run_gcc_reference, p, tmp) for p in progs
                 if directive(open(p).read(), 'gcc-reference') == 'yes']
        jobs += [ex.submit(run_diag, d, tmp) for d in diags]
        for j in jobs:
            n += 1
            r = j.result()
            if r:
                fails.append(r)
                print(r)
    print('translator programs: %d checks, %d failed' % (n, len(fails)))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
