#!/usr/bin/env python3
"""The C the translator writes, for every program it is tested and measured on, kept to
be compared: a change to the translator that should not change its output is checked by

    same_c.py write DIR        translate everything, one file per input in DIR
    (change the translator)
    same_c.py compare DIR      translate again, list every input whose C differs

The inputs: each corpus program (tests/translator/corpus) in its plain and yield forms
(run_corpus.py's CPC text, as `cpcc -DCORPUS_CPC` sees it), with the lifting data flow
and the plain form with environments; tests/translator/programs/*.cpc; lib/*.cpc;
examples/httpd; bench/translator's generated real-code files (gen5k, glib_300,
libc_1k5); and a 2,000-line function of bigfunc.py and 500 labels of shapes.py's `gotos`
with --dataflow=frame (what cpcc -O1 and above translate).  A translation that fails
keeps its messages instead of the C, so a change in what is diagnosed shows too.  One
process (the start-up is paid once); run it with `nice`.  `--only SUBSTRING` restricts
the inputs to names containing it.
"""
import gc
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
sys.path.insert(0, os.path.join(TOP, 'translator'))
sys.path.insert(0, os.path.join(HERE, 'corpus'))

from cpc import frontend as fe          # noqa: E402
from cpc import pipeline                # noqa: E402
import run_corpus                       # noqa: E402

CC = os.environ.get('CC', 'cc')
INC = '-I' + os.path.join(TOP, 'runtime', 'include')


def generated(script, *args):
    p = subprocess.run([sys.executable, os.path.join(TOP, 'bench', 'translator', script)]
                       + [str(a) for a in args], capture_output=True, check=True)
    return p.stdout


def inputs():
    """(name, text, path, front-end flags, dataflow) of every input."""
    corpus = os.path.join(HERE, 'corpus')
    for prog in run_corpus.programs():
        src = os.path.join(corpus, prog + '.c')
        with open(src, 'rb') as f:
            text = f.read()
        flags = ['-std=gnu11', '-DCORPUS_CPC', '-I', corpus] + \
            run_corpus.directive(text, 'corpus-flags')
        for form, dataflow in (('plain', 'lifting'), ('yield', 'lifting'),
                               ('plain', 'environments')):
            try:
                cpc = run_corpus.cpc_text(text, form == 'yield')
            except Exception as e:      # (a harness problem: shown, not hidden)
                cpc = ('/* %s */' % e).encode()
            yield ('corpus-%s-%s-%s' % (prog, form, dataflow), cpc,
                   os.path.join(corpus, prog + '.cpc'), flags, dataflow)
    progs = os.path.join(HERE, 'programs')
    for f in sorted(os.listdir(progs)):
        if f.endswith('.cpc'):
            path = os.path.join(progs, f)
            with open(path, 'rb') as fh:
                yield 'programs-' + f, fh.read(), path, ['-I', progs], 'lifting'
    lib = os.path.join(TOP, 'lib')
    for f in sorted(os.listdir(lib)):
        if f.endswith('.cpc'):
            path = os.path.join(lib, f)
            with open(path, 'rb') as fh:
                yield 'lib-' + f, fh.read(), path, ['-I' + lib], 'lifting'
    httpd = os.path.join(TOP, 'examples', 'httpd')
    path = os.path.join(httpd, 'httpd.cpc')
    with open(path, 'rb') as fh:
        yield 'httpd', fh.read(), path, ['-I' + httpd], 'lifting'
    glib = subprocess.run(['pkg-config', '--cflags', 'glib-2.0'], capture_output=True,
                          text=True).stdout.split()
    yield ('bench-gen5k', generated('gen5k.py', '--lines', 5000), 'gen5k.cpc', [],
           'lifting')
    if glib:
        yield ('bench-glib_300', generated('gen5k.py', '--lines', 300, '--headers', 'glib',
                                           '--native', 0.7), 'glib_300.cpc', glib, 'lifting')
    yield ('bench-libc_1k5', generated('gen5k.py', '--lines', 1500, '--headers', 'libc',
                                       '--native', 0.7), 'libc_1k5.cpc', [], 'lifting')
    # one large function (func10k's shape, smaller) and the goto-heavy shape, with the
    # frame-resident variables cpcc writes from -O1 on
    yield ('bench-func2k-frame', generated('bigfunc.py', '--lines', 2000), 'func2k.cpc',
           [], 'frame')
    yield ('bench-gotos500-frame', generated('shapes.py', 'gotos', 500), 'gotos500.cpc',
           [], 'frame')


def translate(text, path, flags, dataflow):
    try:
        return pipeline.translate(text, path, flags, dataflow=dataflow,
                                  cc=[CC, INC, '-O2'] + flags).encode('utf-8',
                                                                      'surrogateescape')
    except fe.Diags as e:
        return ('errors:\n' + '\n'.join(d.format() for d in e.diags) + '\n').encode()
    except Exception as e:      # a bug: its name is the output
        return ('exception: %s: %s\n' % (type(e).__name__, e)).encode()


def main(argv):
    if len(argv) < 2 or argv[0] not in ('write', 'compare'):
        sys.exit(__doc__)
    mode, out = argv[0], argv[1]
    only = argv[argv.index('--only') + 1] if '--only' in argv else ''
    os.makedirs(out, exist_ok=True)
    differ, n, t0 = [], 0, time.process_time()
    for name, text, path, flags, dataflow in inputs():
        if only not in name:
            continue
        n += 1
        c = translate(text, path, flags, dataflow)
        gc.collect()        # (each translation's parses, before the next one's)
        file = os.path.join(out, name + '.c')
        if mode == 'write':
            with open(file, 'wb') as f:
                f.write(c)
            continue
        try:
            with open(file, 'rb') as f:
                before = f.read()
        except OSError:
            before = None
        if before != c:
            differ.append(name)
            with open(file + '.new', 'wb') as f:
                f.write(c)
            print('differs: %s (the new C in %s.new)' % (name, file), flush=True)
    print('%d inputs, %.1f s of CPU%s' % (n, time.process_time() - t0,
                                         '' if mode == 'write' else
                                         ', %d differ' % len(differ)))
    return 1 if differ else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
