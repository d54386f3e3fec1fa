"""cpcc: a cc-like driver for CPC.

`.cpc` files are translated to C (translate.py) then compiled by $CC (cc by
default) with the runtime's include directory; `.c` files are compiled as
they are; the link adds the runtime library and -pthread.  Diagnostics are
`file:line:col: error: ...`; the exit status is the compiler's.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import frontend as fe

TOP = fe.TOP
BUILD = os.path.join(TOP, 'build')
RUNTIME_INC = os.path.join(TOP, 'runtime', 'include')

# flags taking a separate argument
ARG_FLAGS = {'-o', '-I', '-D', '-U', '-include', '-imacros', '-isystem', '-iquote',
             '-idirafter', '-MF', '-MT', '-MQ', '-x', '-L', '-l', '-Xlinker',
             '-Xpreprocessor', '-Xassembler', '-u', '-T', '-z', '-aux-info', '-wrapper'}
# flags that matter to the front-end (preprocessing and language)
FRONTEND_PREFIXES = ('-I', '-D', '-U', '-include', '-imacros', '-isystem', '-iquote',
                     '-idirafter', '-std=', '-f', '-m')


def die(msg, status=1):
    sys.stderr.write('cpcc: error: %s\n' % msg)
    sys.exit(status)


class Options:
    def __init__(self):
        self.sources = []       # (path, kind) kind in cpc, c, obj
        self.flags = []         # compile flags passed to cc
        self.link_flags = []    # -l, -L, linker flags
        self.fe_flags = []      # flags for the front-end
        self.mode = 'link'      # link, c, S, E
        self.output = None
        self.save_temps = False
        self.frames = 'aligned'
        self.debug = False
        self.dataflow = 'lifting'
        self.dep_flags = []
        self.mf = None
        self.md = False
        self.verbose = False
        self.stop_after = None      # --cpc-stop-after=PASS: print the CPC text after PASS
        self.check_invariants = False
        self.cc = os.environ.get('CC', 'cc')


def parse_args(argv):
    o = Options()
    i = 0
    while i < len(argv):
        a = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None

        def take():
            nonlocal i
            if nxt is None:
                die('missing argument to %s' % a)
            i += 1
            return nxt
        if a == '-c':
            o.mode = 'c'
        elif a == '-S':
            o.mode = 'S'
        elif a == '-E':
            o.mode = 'E'
        elif a == '-o':
            o.output = take()
        elif a in ('--save-temps', '-save-temps'):
            o.save_temps = True
        elif a.startswith('--frames='):
            o.frames = a.split('=', 1)[1]
            if o.frames not in ('packed', 'aligned'):
                die('--frames must be packed or aligned')
        elif a == '--cpc-debug':
            o.debug = True
        elif a.startswith('--cpc-stop-after='):
            from .pipeline import stage_names
            o.stop_after = a.split('=', 1)[1]
            if o.stop_after not in stage_names():
                die('unknown pass `%s` for --cpc-stop-after; the passes are: %s'
                    % (o.stop_after, ', '.join(stage_names())))
        elif a == '--cpc-check-invariants':
            o.check_invariants = True
        elif a.startswith('--dataflow='):
            o.dataflow = a.split('=', 1)[1]
            if o.dataflow not in ('lifting', 'environments'):
                die('--dataflow must be lifting or environments')
        elif a == '-v':
            o.verbose = True
            o.flags.append(a)
        elif a in ('-MD', '-MMD'):
            o.md = True
            o.dep_flags.append(a)
        elif a in ('-MF', '-MT', '-MQ'):
            v = take()
            if a == '-MF':
                o.mf = v
            o.dep_flags += [a, v]
        elif a in ('-MP',):
            o.dep_flags.append(a)
        elif a in ('-M', '-MM'):
            o.dep_flags.append(a)
            o.mode = 'E'
        elif a in ('-l', '-L', '-Xlinker', '-u', '-T', '-z'):
            o.link_flags += [a, take()]
        elif a.startswith('-l') or a.startswith('-L') or a.startswith('-Wl,') \
                or a in ('-pthread', '-static', '-shared', '-rdynamic'):
            if a == '-lcpc':
                pass
            else:
                o.link_flags.append(a)
            if a == '-pthread':
                o.flags.append(a)
        elif a in ARG_FLAGS:
            v = take()
            o.flags += [a, v]
            if a in ('-I', '-D', '-U', '-include', '-imacros', '-isystem', '-iquote',
                     '-idirafter'):
                o.fe_flags += [a, v]
        elif a.startswith('-'):
            o.flags.append(a)
            if a.startswith(('-I', '-D', '-U', '-std=')):
                o.fe_flags.append(a)
        else:
            ext = os.path.splitext(a)[1]
            if ext == '.cpc':
                o.sources.append((a, 'cpc'))
            elif ext in ('.c', '.i'):
                o.sources.append((a, 'c'))
            elif ext in ('.s', '.S'):
                o.sources.append((a, 'c'))
            else:
                o.sources.append((a, 'obj'))
        i += 1
    return o


def ensure_built(o):
    venv_ok = os.path.isdir(os.path.join(TOP, '.venv'))
    lib = runtime_lib(o)
    if o.mode == 'link' and not os.path.isfile(lib) or not venv_ok:
        r = subprocess.run(['make', '-C', TOP, '--no-print-directory', '-s', 'setup', 'runtime'],
                           stdout=sys.stderr)
        if r.returncode != 0:
            die('could not build the CPC runtime (make setup runtime)')


def runtime_lib(o):
    return os.path.join(BUILD, 'runtime', 'libcpc_debug.a' if o.debug else 'libcpc.a')


def cc_base(o):
    base = [o.cc, '-I' + RUNTIME_INC]
    if o.frames == 'packed':
        base.append('-DCPC_PACKED_FRAMES')
    if o.debug:
        base.append('-DCPC_DEBUG')
    return base


def run(cmd, o):
    if o.verbose:
        sys.stderr.write(' '.join(cmd) + '\n')
    r = subprocess.run(cmd)
    return r.returncode


def translate_file(path, o, info=None):
    from . import translate
    try:
        with open(path, 'rb') as f:
            text = f.read()
    except OSError as e:
        die('%s: %s' % (path, e.strerror))
    fe_args = list(o.fe_flags)
    if o.frames == 'packed':
        fe_args.append('-DCPC_PACKED_FRAMES')
    try:
        return translate.translate(text, path, fe_args, dataflow=o.dataflow, info=info,
                                   stop_after=o.stop_after,
                                   check_invariants=o.check_invariants)
    except fe.Diags as e:
        for d in e.diags:
            sys.stderr.write(d.format() + '\n')
        n = len(e.diags)
        sys.stderr.write('%d error%s generated.\n' % (n, '' if n == 1 else 's'))
        sys.exit(1)
    except fe.Diag as d:
        sys.stderr.write(d.format() + '\n')
        sys.exit(1)


def fix_deps(depfile, gen, src, headers=(), phony=False):
    try:
        with open(depfile) as f:
            t = f.read()
    except OSError:
        return
    t = t.replace(gen, src)
    if headers:
        # headers inlined by the translator: gcc never opened them
        m = re.match(r'((?:[^:\\\n]|\\.)+):', t)
        if m:
            hs = ' '.join(h.replace(' ', '\\ ') for h in headers)
            t = t.rstrip('\n') + '\n%s: %s\n' % (m.group(1).strip(), hs)
            if phony:
                t += ''.join('%s:\n' % h.replace(' ', '\\ ') for h in headers)
    with open(depfile, 'w') as f:
        f.write(t)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    o = parse_args(argv)
    if not o.sources:
        die('no input files')
    ensure_built(o)
    tmpdir = tempfile.mkdtemp(prefix='cpcc-')
    try:
        return compile_all(o, tmpdir)
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def compile_all(o, tmpdir):
    objs = []
    if o.output and o.mode != 'link' and len([s for s in o.sources if s[1] != 'obj']) > 1:
        die('cannot specify -o with -c, -S or -E with multiple files')
    suffix = {'c': '.o', 'S': '.s', 'E': None}
    for idx, (path, kind) in enumerate(o.sources):
        if kind == 'obj':
            objs.append(path)
            continue
        base = os.path.splitext(os.path.basename(path))[0]
        if o.mode == 'link':
            out = os.path.join(tmpdir, '%d_%s.o' % (idx, base))
        elif o.output:
            out = o.output
        elif o.mode == 'E':
            out = None
        else:
            out = base + suffix[o.mode]
        info = {}
        if kind == 'cpc' and o.stop_after:
            text = translate_file(path, o, info)
            if o.output:
                with open(o.output, 'w') as f:
                    f.write(text)
            else:
                sys.stdout.write(text)
            continue
        if kind == 'cpc':
            ctext = translate_file(path, o, info)
            if o.save_temps:
                gdir = os.path.dirname(o.output) if (o.output and o.mode != 'link') else ''
                gen = os.path.join(gdir, base + '.cpc.c')
            else:
                gen = os.path.join(tmpdir, '%d_%s.cpc.c' % (idx, base))
            with open(gen, 'w') as f:
                f.write(ctext)
            srcfile = gen
        else:
            srcfile = path
        cmd = cc_base(o) + o.flags
        if kind == 'cpc':
            # `#include "x.h"` of the .cpc file: the generated C lies elsewhere
            cmd += ['-iquote', os.path.dirname(os.path.abspath(path))]
        if o.mode == 'c' or o.mode == 'link':
            cmd.append('-c')
        elif o.mode == 'S':
            cmd.append('-S')
        elif o.mode == 'E':
            cmd.append('-E')
        deps = list(o.dep_flags)
        if kind == 'cpc' and o.md and o.mf is None and out is not None:
            deps += ['-MF', os.path.splitext(out)[0] + '.d']
        if kind == 'cpc' and o.md and '-MT' not in deps and '-MQ' not in deps and out is not None:
            deps += ['-MT', out]
        cmd += deps
        cmd += [srcfile]
        if out is not None:
            cmd += ['-o', out]
        rc = run(cmd, o)
        if rc != 0:
            return rc
        if kind == 'cpc' and o.md:
            depfile = o.mf or (os.path.splitext(out)[0] + '.d' if out else None)
            if depfile:
                fix_deps(depfile, srcfile, path, info.get('headers', ()),
                         '-MP' in o.dep_flags)
        if o.mode == 'link':
            objs.append(out)
    if o.mode != 'link' or o.stop_after:
        return 0
    lib = runtime_lib(o)
    cmd = [o.cc] + [f for f in o.flags if not f.startswith(('-W', '-D', '-U', '-I', '-std'))]
    cmd += objs + o.link_flags + [lib, '-pthread']
    if o.output:
        cmd += ['-o', o.output]
    return run(cmd, o)


if __name__ == '__main__':
    sys.exit(main())
