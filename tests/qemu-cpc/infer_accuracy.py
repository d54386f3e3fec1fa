#!/usr/bin/env python3
"""tests/qemu-cpc/infer_accuracy.py QEMU_CHECKOUT OUT

How well `cpc-check --infer` finds, on the branch `master` of the paper's
QEMU (before its annotation work), the `coroutine_fn` annotations that the
branch `cpc` added to the block layer (*QEMU/CPC*, section 4; docs/references.md), and how long
it takes.  Prints, one a line:

    qemu-cpc: infer precision P% (TP/PREDICTED) recall R% (TP/ADDED)
    qemu-cpc: infer time WALL_S s wall, CPU_S s CPU, N files
    qemu-cpc: infer missed NAME...         (added by the branch, not inferred)
    qemu-cpc: infer extra NAME...          (inferred, not added by the branch)
    qemu-cpc: infer renamed-by-branch NAME...  (extra, but the branch annotated
                                            its body under a new name, F_co_...)
    qemu-cpc: infer lacking-in-branch NAME...  (extra, but the branch needs it
                                            to build with CPC: build.sh's --fix adds it)
    qemu-cpc: infer against the branch with renames and --fix: precision ... recall ...

The block layer is block.c, blockjob.c and block/*.c as the ucontext build
of tests/qemu-cpc/build.sh compiled them: OUT is that script's output
directory, whose compile commands (OUT/build-ucontext/commands) and
generated headers are reused for master's copy of the same files
(OUT/infer/master).  What the branch added: the functions of those files
whose declarations or definitions there carry `coroutine_fn` on `cpc` and
on `master` carry none.  What inference predicts: `--infer list` on master.
Targets for the block layer: precision >= 95%, recall >= 92%,
under 60 s.  Not part of `make test`.
"""
import json
import os
import re
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
CPC_CHECK = os.path.join(TOP, 'tools', 'cpc-check')
ATTR = 'coroutine_fn'


def block_layer(rel):
    return rel in ('block.c', 'blockjob.c') or (rel.startswith('block/') and rel.endswith('.c'))


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text, flags=re.S)
    return re.sub(r'//[^\n]*', '', text)


# a declarator `NAME (` after the annotation, in the same declaration (no
# `;`, `{`, `}` or `=` between them); a pointer slot `(*NAME)` is not a function
ANNOTATED_RE = re.compile(r'\b%s\b([^;{}=()]*?)\b([A-Za-z_]\w*)\s*\(' % ATTR)
KEYWORDS = {'int', 'void', 'char', 'long', 'short', 'unsigned', 'signed', 'bool', 'static',
            'inline', 'const', 'struct', 'enum', 'union', 'double', 'float', 'extern'}


def annotated(text):
    """Names of the functions whose declaration or definition in `text`
    carries the annotation (before or after the result type)."""
    out = set()
    text = strip_comments(text)
    text = re.sub(r'(?m)^\s*#\s*define[^\n]*', '', text)
    for m in ANNOTATED_RE.finditer(text):
        if m.group(2) not in KEYWORDS:
            out.add(m.group(2))
    # `int foo(...) coroutine_fn` is not QEMU's style; the annotation after
    # the result type and before the name is (`int coroutine_fn foo(`)
    return out


def mentions(text):
    return set(re.findall(r'\b([A-Za-z_]\w*)\s*\(', strip_comments(text)))


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    qemu, out = os.path.abspath(argv[1]), os.path.abspath(argv[2])
    commands = os.path.join(out, 'build-ucontext', 'commands')
    src = os.path.join(out, 'src-ucontext')
    if not os.path.exists(commands):
        print('%s: run tests/qemu-cpc/build.sh %s %s first (it writes %s)'
              % (argv[0], argv[1], argv[2], commands), file=sys.stderr)
        return 2
    work = os.path.join(out, 'infer')
    master = os.path.join(work, 'master')
    cpc = os.path.join(work, 'cpc')
    subprocess.run(['rm', '-rf', work], check=True)
    for branch, d in (('master', master), ('cpc', cpc)):
        os.makedirs(d)
        archive = subprocess.Popen(['git', '-C', qemu, 'archive', branch], stdout=subprocess.PIPE)
        subprocess.run(['tar', '-x', '-C', d], stdin=archive.stdout, check=True)
        if archive.wait() != 0:
            print('%s: %s has no branch %s' % (argv[0], qemu, branch), file=sys.stderr)
            return 2
    entries = {}
    for line in open(commands):
        e = json.loads(line)
        rel = os.path.relpath(e['file'], src)
        if block_layer(rel) and os.path.exists(os.path.join(master, rel)):
            # every path into the ucontext sources, `-I SRC` itself
            # included, must name master's copy: a header of the branch
            # read in master's place brings the branch's annotations
            entries[rel] = json.loads(re.sub(re.escape(src) + r'(?=[/"])', master, line))
    db = os.path.join(work, 'db')
    os.makedirs(db)
    with open(os.path.join(db, 'compile_commands.json'), 'w') as fh:
        json.dump(list(entries.values()), fh, indent=1)

    added, before = set(), set()
    defined = set()
    for rel in entries:
        m_text = open(os.path.join(master, rel), errors='replace').read()
        c_text = open(os.path.join(cpc, rel), errors='replace').read() \
            if os.path.exists(os.path.join(cpc, rel)) else ''
        before |= annotated(m_text)
        added |= annotated(c_text)
        defined |= mentions(m_text)
    added_cpc = added
    truth = (added - before) & defined

    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run([CPC_CHECK, '--coroutine-attr', ATTR, '-q', '--infer', 'list', '-p', db],
                       capture_output=True, text=True, cwd=work)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if r.returncode not in (0, 1):
        print('qemu-cpc: infer FAILED (status %d)' % r.returncode)
        print('\n'.join('qemu-cpc:   ' + l for l in r.stderr.splitlines()[:20]))
        return 1
    predicted = set(r.stdout.split())
    tp = predicted & truth
    precision = 100.0 * len(tp) / len(predicted) if predicted else 0.0
    recall = 100.0 * len(tp) / len(truth) if truth else 0.0
    print('qemu-cpc: infer precision %.1f%% (%d/%d) recall %.1f%% (%d/%d)'
          % (precision, len(tp), len(predicted), recall, len(tp), len(truth)))
    print('qemu-cpc: infer time %.1f s wall, %.1f s CPU, %d files' % (wall, cpu, len(entries)))
    print('qemu-cpc: infer missed %s' % ' '.join(sorted(truth - predicted)))
    print('qemu-cpc: infer extra %s' % ' '.join(sorted(predicted - truth)))

    # The names the branch changed.  A function of master whose body the
    # branch moved, annotated, to a new function named with `co_` after its
    # first word (qcow2_open -> qcow2_co_open), keeping the old name for a
    # native wrapper or dropping it, was annotated under another name.
    renamed = set()
    for f in predicted - truth:
        m = re.match(r'([A-Za-z0-9]+)_(.+)$', f)
        if m and '%s_co_%s' % m.groups() in added_cpc and \
                '%s_co_%s' % m.groups() not in defined:
            renamed.add(f)
    print('qemu-cpc: infer renamed-by-branch %s' % ' '.join(sorted(renamed)))
    # What the branch itself lacks to build with CPC: the annotations
    # build.sh's `cpc-check --fix` adds to the branch (OUT/cpc-check/fix.diff,
    # the tree whose CPC build passes the iotests).
    fixed = fix_added(os.path.join(out, 'cpc-check', 'fix.diff'))
    if fixed is not None:
        lacking = (predicted - truth - renamed) & fixed
        ref = truth | renamed | lacking
        tp2 = predicted & ref
        print('qemu-cpc: infer lacking-in-branch %s' % ' '.join(sorted(lacking)))
        print('qemu-cpc: infer against the branch with renames and --fix: precision %.1f%% '
              '(%d/%d) recall %.1f%% (%d/%d)' % (
                  100.0 * len(tp2) / max(1, len(predicted)), len(tp2), len(predicted),
                  100.0 * len(tp2) / max(1, len(ref)), len(tp2), len(ref)))
    return 0


def fix_added(path):
    """Functions that a `cpc-check --fix` diff annotates (None: no diff)."""
    try:
        lines = open(path, errors='replace').read().splitlines()
    except OSError:
        return None
    plus = annotated('\n'.join(l[1:] for l in lines if l.startswith('+') and
                                not l.startswith('+++')))
    minus = annotated('\n'.join(l[1:] for l in lines if l.startswith('-') and
                                 not l.startswith('---')))
    return plus - minus


if __name__ == '__main__':
    sys.exit(main(sys.argv))
