"""cpcc: a cc-like driver for CPC.

`.cpc` files are translated to C (translate.py) then compiled by $CC (cc by
default) with the runtime's include directory; `.c` files are compiled as
they are; the link adds the runtime library and -pthread.  Diagnostics are
`file:line:col: error: ...`; the exit status is the compiler's.
"""
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import frontend as fe
from . import paths

TOP = paths.CHECKOUT
RUNTIME_INC = paths.INCLUDE_DIR
# what selects the headers' front-end mode (cpcc's front-end defines it)
FRONTEND_MACRO_FLAG = '-D__CPC_FRONTEND__'

# gcc options whose argument may be the next word (`-I DIR`) or, for most,
# joined to the option (`-IDIR`), by where the argument goes:
#   pp       preprocessing: the C compiler and the front-end (libclang)
#   compile  the C compiler only
#   link     the link command only, in its place among the inputs
#   both     the C compiler and the link command
# Long spellings (`--include-directory DIR`, `--output=F`) map to the short one.
SEPARATE = {
    '-I': 'pp', '-D': 'pp', '-U': 'pp', '-include': 'pp', '-imacros': 'pp',
    '-isystem': 'pp', '-iquote': 'pp', '-idirafter': 'pp', '-iprefix': 'pp',
    '-iwithprefix': 'pp', '-iwithprefixbefore': 'pp', '-isysroot': 'pp',
    '-A': 'compile', '-imultilib': 'compile', '-imultiarch': 'compile',
    '-MF': 'dep', '-MT': 'dep', '-MQ': 'dep',
    '-aux-info': 'compile', '-dumpbase': 'compile', '-dumpbase-ext': 'compile',
    '-dumpdir': 'compile', '-Xassembler': 'compile', '-Xpreprocessor': 'compile',
    '--param': 'both', '-B': 'both', '-wrapper': 'both', '-specs': 'both',
    '--sysroot': 'both',
    '-L': 'link', '-l': 'link', '-Xlinker': 'link', '-T': 'link', '-e': 'link',
    '-u': 'link', '-z': 'link',
    '-o': 'output', '-x': 'language',
}
# options that also take their argument joined to them (`-DX=1`, `-lm`, `-xc`)
JOINED = ('-I', '-D', '-U', '-include', '-imacros', '-isystem', '-iquote', '-idirafter',
          '-iprefix', '-iwithprefix', '-iwithprefixbefore', '-isysroot', '-A', '-imultilib',
          '-imultiarch', '-MF', '-MT', '-MQ', '-B', '-L', '-l', '-T', '-e', '-u', '-z', '-o',
          '-x')
LONG = {
    '--include-directory': '-I', '--define-macro': '-D', '--undefine-macro': '-U',
    '--include': '-include', '--imacros': '-imacros', '--include-directory-after': '-idirafter',
    '--include-prefix': '-iprefix', '--include-with-prefix': '-iwithprefix',
    '--include-with-prefix-after': '-iwithprefix',
    '--include-with-prefix-before': '-iwithprefixbefore', '--assert': '-A',
    '--output': '-o', '--language': '-x', '--library-directory': '-L', '--library': '-l',
    '--entry': '-e', '--for-linker': '-Xlinker', '--force-link': '-u', '--prefix': '-B',
    '--for-assembler': '-Xassembler', '--dumpbase': '-dumpbase',
    '--dumpbase-ext': '-dumpbase-ext', '--dumpdir': '-dumpdir', '--param': '--param',
    '--sysroot': '--sysroot', '--specs': '-specs',
}
# single-word options that start like a joined one but are options of their own
STANDALONE = {'-undef'}
# single words that only matter to the compiler, never to the link command
COMPILE_ONLY_PREFIXES = ('-W', '-D', '-U', '-I', '-std', '-M', '-C', '-P', '-H', '-trigraphs',
                         '-undef', '-nostdinc', '-Wp,', '-Wa,', '-pedantic')
# languages of `-x`: `cpc` is translated; `none` goes back to the file's suffix
SUFFIX_KIND = {'.cpc': 'cpc', '.c': 'c', '.i': 'c', '.s': 'c', '.S': 'c', '.sx': 'c'}


def die(msg, status=1):
    sys.stderr.write('cpcc: error: %s\n' % msg)
    sys.exit(status)


class Options:
    def __init__(self):
        self.sources = []       # (path, kind, language) kind in cpc, c, obj
        self.flags = []         # compile flags passed to cc
        self.link_common = []   # flags of cc that the link command needs too
        self.link_seq = []      # link inputs in command-line order: ('flag', w) | ('src', i)
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
        self.current = None     # the file being compiled (for internal errors)
        self.mj = None          # -MJ: append a compilation database entry here
        self.argv = []
        self.lang = None        # the language of `-x`, for the inputs that follow
        self.stop_after = None      # --cpc-stop-after=PASS: print the CPC text after PASS
        self.check_invariants = False
        self.cc = os.environ.get('CC', 'cc')

    @property
    def link_flags(self):
        return [w for k, w in self.link_seq if k == 'flag']


def split_option(a, nxt):
    """(name, value, words used) if `a` is an option taking an argument, else None."""
    if a.startswith('--'):
        name, eq, val = a.partition('=')
        if name in LONG:
            short = LONG[name]
            if eq:
                return short, val, 1
            return short, nxt, 2
        return None
    if a in STANDALONE and a not in SEPARATE:
        return None
    if a in SEPARATE:
        return a, nxt, 2
    for name in sorted(JOINED, key=len, reverse=True):
        if a.startswith(name) and len(a) > len(name):
            return name, a[len(name):], 1
    return None


def add_source(o, path, lang):
    if lang == 'cpc':
        kind = 'cpc'
    elif lang is not None:
        kind = 'c'
    else:
        kind = SUFFIX_KIND.get(os.path.splitext(path)[1], 'obj')
    o.sources.append((path, kind, lang if kind == 'c' else None))
    o.link_seq.append(('src', len(o.sources) - 1))


def add_option(o, name, val):
    where = SEPARATE[name]
    if name == '-o':
        o.output = val
    elif name == '-x':
        o.lang = None if val == 'none' else val
    elif where == 'dep':
        if name == '-MF':
            o.mf = val
        o.dep_flags += [name, val]
    elif where == 'link':
        if name == '-l' and val == 'cpc':
            return      # the runtime library is always linked
        o.link_seq += [('flag', name), ('flag', val)]
    else:
        o.flags += [name, val]
        if where == 'pp':
            o.fe_flags += [name, val]
        if where == 'both':
            o.link_common += [name, val]


def parse_args(argv):
    o = Options()
    o.argv = list(argv)
    i = 0
    while i < len(argv):
        a = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if a == FRONTEND_MACRO_FLAG:
            i += 1
            continue    # the front-end's own mode (see compile_command_entry)
        if a.startswith('-MJ'):
            o.mj = a[3:] or nxt
            if o.mj is None:
                die('missing argument to \'%s\'' % a)
            i += 1 if a[3:] else 2
            continue
        opt = split_option(a, nxt) if a.startswith('-') and a != '-' else None
        if opt is not None:
            name, val, used = opt
            if val is None:
                die('missing argument to \'%s\'' % a)
            add_option(o, name, val)
            i += used
            continue
        if a == '-c':
            o.mode = 'c'
        elif a == '-S':
            o.mode = 'S'
        elif a == '-E':
            o.mode = 'E'
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
            o.link_common.append(a)
        elif a in ('-MD', '-MMD'):
            o.md = True
            o.dep_flags.append(a)
        elif a in ('-MP', '-MG'):
            o.dep_flags.append(a)
        elif a in ('-M', '-MM'):
            o.dep_flags.append(a)
            o.mode = 'E'
        elif a.startswith('-Wl,') or a in ('-static', '-shared', '-rdynamic', '-nostdlib',
                                           '-nodefaultlibs', '-nostartfiles', '-pie',
                                           '-no-pie', '-static-pie', '-s'):
            o.link_seq.append(('flag', a))
        elif a.startswith('-'):
            o.flags.append(a)
            if a.startswith(('-I', '-D', '-U', '-std=')):
                o.fe_flags.append(a)
            if not a.startswith(COMPILE_ONLY_PREFIXES) or a.startswith('-Wl,'):
                o.link_common.append(a)
        else:
            add_source(o, a, o.lang)
        i += 1
    return o


def ensure_built(o):
    if paths.installed is not None:
        return      # an installation is complete: nothing to build
    venv_ok = os.path.isdir(os.path.join(TOP, '.venv'))
    lib = runtime_lib(o)
    if o.mode == 'link' and not os.path.isfile(lib) or not venv_ok:
        r = subprocess.run(['make', '-C', TOP, '--no-print-directory', '-s', 'setup', 'runtime'],
                           stdout=sys.stderr)
        if r.returncode != 0:
            die('could not build the CPC runtime (make setup runtime)')


def runtime_lib(o):
    return os.path.join(paths.LIB_DIR, 'libcpc_debug.a' if o.debug else 'libcpc.a')


def runtime_link_flags(o):
    """How the link names the runtime: a shared object (-shared) depends on
    libcpc.so, which a program then loads once whatever the number of CPC
    libraries it uses; a program gets the static archive by default."""
    if '-shared' in o.link_flags:
        return ['-L' + paths.LIB_DIR, '-lcpc_debug' if o.debug else '-lcpc']
    return [runtime_lib(o)]


def compile_command_entry(o, path, kind, out):
    """The compilation database entry (as clang -MJ writes it) for compiling
    source `path` alone: cpcc's own arguments, less -MJ, the other sources
    and the output, so a tool re-reading the file sees the same flags.  For
    a .cpc file they start with what lets a C tool parse it as cpcc's
    front-end does (the front-end mode of the headers and their directory;
    the tool must be told the language, e.g. clangd's `Add: [-xc]`); cpcc
    ignores -D__CPC_FRONTEND__, so the entry remains a command cpcc runs."""
    args, skip = ['cpcc'], False
    if kind == 'cpc':
        args += [FRONTEND_MACRO_FLAG, '-I' + RUNTIME_INC]
    for a in o.argv:
        if skip:
            skip = False
        elif a in ('-MJ', '-o'):
            skip = True
        elif a.startswith('-MJ') or a in ('-c', '-S', '-E') or a == FRONTEND_MACRO_FLAG:
            pass
        elif a.startswith('-o') or (not a.startswith('-') and
                                    any(a == s[0] for s in o.sources)):
            pass
        else:
            args.append(a)
    args += ['-S' if o.mode == 'S' else '-c', path]
    if out:
        args += ['-o', out]
    entry = {'directory': os.getcwd(), 'file': path, 'arguments': args}
    if out:
        entry['output'] = out
    return entry


def append_compile_command(o, path, kind, out):
    import fcntl
    text = json.dumps(compile_command_entry(o, path, kind, out)) + ',\n'
    try:
        with open(o.mj, 'a') as f:
            fcntl.lockf(f, fcntl.LOCK_EX)
            f.write(text)
    except OSError as e:
        die('%s: %s' % (o.mj, e.strerror))


def implied_defines(o):
    """The macros cpcc's own options define.  The C compiler and the
    front-end both get them: a function the translator reprints from the
    front-end's parse keeps only the branches of its conditionals that the
    front-end took."""
    defines = []
    if o.frames == 'packed':
        defines.append('-DCPC_PACKED_FRAMES')
    if o.debug:
        defines.append('-DCPC_DEBUG')
    return defines


def cc_base(o):
    return [o.cc, '-I' + RUNTIME_INC] + implied_defines(o)


def run(cmd, o, about=None, generated=None):
    """Run cmd; with `about` (the .cpc files the generated C was
    translated from), its messages go to stderr in the user's terms
    (messages.py)."""
    if o.verbose:
        sys.stderr.write(' '.join(cmd) + '\n')
    if not about:
        return subprocess.run(cmd).returncode
    r = subprocess.run(cmd, stderr=subprocess.PIPE)
    if r.stderr:
        from . import messages
        text = r.stderr.decode('utf-8', 'replace')
        sys.stderr.write(messages.relayed(text, about, generated))
        sys.stderr.flush()
    return r.returncode


def translate_file(path, o, info=None):
    from . import translate
    try:
        with open(path, 'rb') as f:
            text = f.read()
    except OSError as e:
        die('%s: %s' % (path, e.strerror))
    fe_args = list(o.fe_flags) + implied_defines(o)
    try:
        return translate.translate(text, path, fe_args, dataflow=o.dataflow, info=info,
                                   stop_after=o.stop_after,
                                   check_invariants=o.check_invariants,
                                   cc=cc_base(o) + o.flags)
    except fe.Diags as e:
        from . import messages
        for d in e.diags:
            sys.stderr.write(messages.quoted(d.format()) + '\n')
        n = len(e.diags)
        sys.stderr.write('%d error%s generated.\n' % (n, '' if n == 1 else 's'))
        sys.exit(1)
    except fe.Diag as d:
        from . import messages
        sys.stderr.write(messages.quoted(d.format()) + '\n')
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
    try:
        ensure_built(o)
        tmpdir = tempfile.mkdtemp(prefix='cpcc-')
        try:
            return compile_all(o, tmpdir)
        finally:
            shutil.rmtree(tmpdir, ignore_errors=True)
    except KeyboardInterrupt:
        return 130
    except Exception as e:   # a bug of cpcc: one line, never a traceback
        where = '%s: ' % o.current if o.current else ''
        msg = str(e).splitlines()[0] if str(e) else ''
        sys.stderr.write('%scpcc: internal error: %s%s%s\n'
                         % (where, type(e).__name__, ': ' if msg else '', msg[:300]))
        return 70


def compile_all(o, tmpdir):
    if o.output and o.mode != 'link' and len([s for s in o.sources if s[1] != 'obj']) > 1:
        die('cannot specify -o with -c, -S or -E with multiple files')
    suffix = {'c': '.o', 'S': '.s', 'E': None}
    objs = {}
    for idx, (path, kind, lang) in enumerate(o.sources):
        o.current = path
        if kind == 'obj':
            objs[idx] = path
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
            data = text.encode('utf-8', 'surrogateescape')
            if o.output:
                with open(o.output, 'wb') as f:
                    f.write(data)
            else:
                sys.stdout.flush()
                sys.stdout.buffer.write(data)
            continue
        if kind == 'cpc':
            ctext = translate_file(path, o, info)
            if o.save_temps:
                gdir = os.path.dirname(o.output) if (o.output and o.mode != 'link') else ''
                gen = os.path.join(gdir, base + '.cpc.c')
            else:
                gen = os.path.join(tmpdir, '%d_%s.cpc.c' % (idx, base))
            # bytes that are not UTF-8 (in comments, strings) go out as they came in
            with open(gen, 'w', encoding='utf-8', errors='surrogateescape') as f:
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
        if lang is not None:
            cmd += ['-x', lang]
        cmd += [srcfile]
        if kind != 'cpc' and lang is not None:
            cmd += ['-x', 'none']
        if out is not None:
            cmd += ['-o', out]
        rc = run(cmd, o, [path] if kind == 'cpc' else None, srcfile)
        if rc != 0:
            return rc
        if kind == 'cpc' and o.md:
            depfile = o.mf or (os.path.splitext(out)[0] + '.d' if out else None)
            if depfile:
                fix_deps(depfile, srcfile, path, info.get('headers', ()),
                         '-MP' in o.dep_flags)
        if o.mj is not None and o.mode != 'E':
            append_compile_command(o, path, kind, out if o.mode != 'link' else None)
        if o.mode == 'link':
            objs[idx] = out
    o.current = None
    if o.mode != 'link' or o.stop_after:
        return 0
    cmd = [o.cc] + o.link_common
    for what, v in o.link_seq:
        cmd.append(v if what == 'flag' else objs[v])
    cmd += runtime_link_flags(o) + ['-pthread']
    if o.output:
        cmd += ['-o', o.output]
    return run(cmd, o)


if __name__ == '__main__':
    # cpcc is a short-lived process whose one big allocator is the
    # translator, which collects its own garbage at each new parse
    # (pipeline.collected_per_parse): the last parse of a file is left to
    # the next file's first collection or to the exit, not collected when
    # the translation ends (a tenth of a second on a 5,000-line file).
    gc.disable()
    sys.exit(main())
