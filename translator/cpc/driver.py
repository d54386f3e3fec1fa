"""cpcc: a cc-like driver for CPC.

`.cpc` files are translated to C (translate.py) then compiled by the C
compiler (c_compiler: $CPCC_CC, else $CC unless it is cpcc, else cc) with
the runtime's include directory; `.c` files are compiled as
they are; the link adds the runtime library and -pthread.  Diagnostics are
`file:line:col: error: ...`; the exit status is the compiler's.
"""
import gc
import json
import os
import re
import shlex
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


# Set in the environment of every command cpcc runs: a cpcc that finds it
# was started as cpcc's own C compiler (a wrapper, a renamed copy), and
# would start another in turn, for ever.
CC_GUARD = 'CPCC_RUNNING_CC'


def names_cpcc(word):
    """Whether a word of a C compiler command is cpcc (by name, through
    PATH and symbolic links)."""
    found = shutil.which(word) or word
    return 'cpcc' in (os.path.basename(word), os.path.basename(os.path.realpath(found)))


def c_compiler():
    """The C compiler's command, as words: $CPCC_CC, else $CC, else cc.  $CC
    naming cpcc (`make CC=cpcc` exports it to every command, cpcc's too)
    means the user's build compiles with cpcc: its C compiler is then cc."""
    for var in ('CPCC_CC', 'CC'):
        value = os.environ.get(var, '').strip()
        if not value:
            continue
        try:
            words = shlex.split(value)
        except ValueError as e:
            die('%s=%s: %s' % (var, value, e))
        if not any(names_cpcc(w) for w in words):
            return words
        if var == 'CPCC_CC':
            die('CPCC_CC=%s names cpcc itself; set it to a C compiler' % value)
    return ['cc']


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
        self.dataflow = None        # None: default_dataflow(flags)
        self.dep_flags = []
        self.mf = None
        self.md = False
        self.verbose = False
        self.current = None     # the file being compiled (for internal errors)
        self.mj = None          # -MJ: append a compilation database entry here
        self.argv = []
        self.lang = None        # the language of `-x`, for the inputs that follow
        self.stop_after = None      # --cpc-stop-after=PASS: print the CPC text after PASS
        self.emit_c = False         # --cpc-emit-c: print the translated C
        self.check_invariants = False
        self.cc = c_compiler()  # the C compiler's command words

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


def choice(arg, allowed):
    """The value of option `--name=value` when it is one of `allowed` (two)."""
    name, _, value = arg.partition('=')
    if value not in allowed:
        die('%s must be %s or %s' % (name, allowed[0], allowed[1]))
    return value


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
            o.frames = choice(a, ('packed', 'aligned'))
        elif a == '--cpc-debug':
            o.debug = True
        elif a.startswith('--cpc-stop-after='):
            from .pipeline import stage_names
            o.stop_after = a.split('=', 1)[1]
            if o.stop_after not in stage_names():
                die('unknown pass `%s` for --cpc-stop-after; the passes are: %s'
                    % (o.stop_after, ', '.join(stage_names())))
        elif a == '--cpc-emit-c':
            o.emit_c = True
        elif a == '--cpc-check-invariants':
            o.check_invariants = True
        elif a.startswith('--dataflow='):
            o.dataflow = choice(a, ('lifting', 'frame', 'environments'))
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
    if o.dataflow is None:
        o.dataflow = default_dataflow(o.flags)
    return o


def default_dataflow(flags):
    """How variables live across cooperation points when no --dataflow
    is given: in the frame, read in place, when the C is optimised (the
    last -O flag other than -O0 and -Og: frame-resident variables,
    docs/abi.md); lifted into C locals otherwise, where gdb shows them as
    the program's own (the user debugs at -O0)."""
    level = None
    for a in flags:
        if a.startswith('-O'):
            level = a
    return 'frame' if level is not None and level not in ('-O0', '-Og') else 'lifting'


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


def library_search_dirs(o):
    """The directories the link searches for -lNAME, in order (the user's
    -L, LIBRARY_PATH, CPC's own)."""
    flags, dirs = o.link_flags, []
    for i, w in enumerate(flags):
        if w == '-L' and i + 1 < len(flags):
            dirs.append(flags[i + 1])
    dirs += [d for d in os.environ.get('LIBRARY_PATH', '').split(':') if d]
    return dirs + paths.LINK_DIRS


def shared_inputs(o, objs):
    """The shared objects among the link's inputs: files named .so[.N] and
    the -lNAME found as libNAME.so in library_search_dirs."""
    found, flags, dirs = [], o.link_flags, None
    for what, v in o.link_seq:
        if what == 'src' and re.search(r'\.so(\.\d+)*$', objs[v]):
            found.append(objs[v])
    for i, w in enumerate(flags):
        name = flags[i + 1] if w == '-l' and i + 1 < len(flags) else None
        if name is None or name in ('cpc', 'cpc_debug') or name.startswith(':'):
            continue
        dirs = library_search_dirs(o) if dirs is None else dirs
        for d in dirs:
            if os.path.isfile(os.path.join(d, 'lib%s.a' % name)) and \
                    not os.path.exists(os.path.join(d, 'lib%s.so' % name)):
                break
            so = os.path.join(d, 'lib%s.so' % name)
            if os.path.exists(so):
                found.append(so)
                break
    return found


def needs_shared_runtime(path):
    """Whether the shared object `path` depends on libcpc.so (or the debug
    one): its program must then use that runtime, not the archive."""
    try:
        out = subprocess.run(['readelf', '-d', path], capture_output=True, text=True).stdout
    except OSError:
        return False
    return re.search(r'\(NEEDED\).*\[libcpc(_debug)?\.so', out) is not None


# A runtime library given as a link input: libcpc.a, libcpc_debug.so.0.1.0, ...
RUNTIME_FILE = re.compile(r'libcpc(_debug)?\.(a|so(\.\d+)*)$')


def runtime_link_flags(o, objs):
    """How the link names the runtime: a shared object (-shared) depends on
    libcpc.so, which a program then loads once whatever the number of CPC
    libraries it uses; so does a program linked with such a library (a
    process has one runtime: the archive beside libcpc.so would make two);
    any other program gets the static archive.  CPC's library directory
    follows the user's -L (-lcpc_uv, -lcpc_ev), and a link with libcpc.so
    gets the rpath that lets the program find it (paths.RPATH_FLAGS)."""
    search = ['-L' + d for d in paths.LINK_DIRS]
    named = [objs[v] for what, v in o.link_seq
             if what == 'src' and RUNTIME_FILE.match(os.path.basename(objs[v]))]
    if named:   # the link names a runtime itself (CMake's CPC::cpc...)
        return search + (paths.RPATH_FLAGS if any('.so' in n for n in named) else [])
    shared = '-shared' in o.link_flags or (
        '-static' not in o.link_flags and
        any(needs_shared_runtime(p) for p in shared_inputs(o, objs)))
    if shared:
        return search + paths.RPATH_FLAGS + ['-lcpc_debug' if o.debug else '-lcpc']
    return search + [runtime_lib(o)]


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
    return o.cc + ['-I' + RUNTIME_INC] + implied_defines(o)


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


HELP = """\
Usage: cpcc [options] file...
Compile CPC (.cpc) and C files like cc: .cpc files are translated to C and
compiled by the C compiler ($CPCC_CC, else $CC, else cc); the link adds the
CPC runtime.  Every option of cc is accepted and passed on.

  -x cpc                  the following files are CPC whatever their suffix
                          (-x none: back to the suffix)
  -c, -S, -o FILE         as cc
  -E                      preprocess the .cpc file (CPC keywords kept) to
                          stdout or -o FILE; C files as cc -E
  --cpc-emit-c            translate the .cpc files to C and print that (or
                          write it to -o FILE); nothing is compiled
  --cpc-debug             compile for the checking runtime, link libcpc_debug
  --save-temps            keep the generated C as NAME.cpc.c
  --frames=aligned|packed         layout of the frames (default aligned)
  --dataflow=lifting|frame|environments  how variables live across cooperation
                          points (default: frame with -O1 and above, else lifting)
  --cpc-stop-after=PASS   print the CPC text after a translator pass
  -MD, -MMD, -MF, -MT ... dependency files naming the .cpc sources
  -MJ FILE                append a compilation database entry per file
  -v                      print the commands run
  --version, --help

A program is linked with the static libcpc.a, a -shared library with
libcpc.so (see cpcc(1), cpc(7)).
"""


def version_text():
    where = ('installed in %s' % paths.installed.PREFIX if paths.installed is not None
             else 'run from the checkout %s' % TOP)
    return ('cpcc (CPC) %s\n%s; C compiler: %s\n'
            % (paths.VERSION, where, ' '.join(c_compiler())))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv in (['--version'], ['-dumpversion']):
        sys.stdout.write(version_text() if argv[0] == '--version' else paths.VERSION + '\n')
        return 0
    if argv and argv[0] in ('--help', '-h'):
        sys.stdout.write(HELP)
        return 0
    if os.environ.get(CC_GUARD):
        die('cpcc was started as the C compiler of cpcc (CPCC_CC=%s, CC=%s); set CPCC_CC '
            'or CC to a C compiler' % (os.environ.get('CPCC_CC', ''), os.environ.get('CC', '')))
    o = parse_args(argv)
    if not o.sources:
        die('no input files')
    try:
        ensure_built(o)
        os.environ[CC_GUARD] = '1'      # for every command run from here on
        tmpdir = tempfile.mkdtemp(prefix='cpcc-')
        try:
            return compile_all(o, tmpdir)
        finally:
            os.environ.pop(CC_GUARD, None)
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
        if kind == 'cpc' and o.mode == 'E' and not o.stop_after and not o.emit_c:
            # the CPC source preprocessed: headers in front-end mode, the
            # keywords kept as written
            cmd = cc_base(o) + o.flags + ['-E', FRONTEND_MACRO_FLAG, '-D__CPC_KEEP_KEYWORDS__']
            cmd += o.dep_flags + ['-x', 'c', path, '-x', 'none']
            if o.output:
                cmd += ['-o', o.output]
            rc = run(cmd, o)
            if rc != 0:
                return rc
            continue
        if kind == 'cpc' and (o.stop_after or o.emit_c):
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
    if o.mode != 'link' or o.stop_after or o.emit_c:
        return 0
    cmd = o.cc + o.link_common
    for what, v in o.link_seq:
        cmd.append(v if what == 'flag' else objs[v])
    cmd += runtime_link_flags(o, objs) + ['-pthread']
    if o.output:
        cmd += ['-o', o.output]
    return run(cmd, o)


def exit_now(status):
    """End the process with `status` (main()'s result or SystemExit's code)
    without the interpreter's teardown: at the end of cpcc the translator's
    last parses are still alive (hundreds of thousands of objects, libclang's
    units), and freeing them one by one, with the collection that the
    interpreter's exit makes, took 0.25-0.3 s of CPU on a 5,000-line file,
    for memory the system takes back at once.  Every file cpcc writes is
    closed when main() returns (`with` blocks) and its temporary directory
    removed; only the standard streams are flushed here."""
    if status is None:
        status = 0
    elif not isinstance(status, int):
        sys.stderr.write('%s\n' % status)
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            status = status or 1
    os._exit(status)


if __name__ == '__main__':
    # cpcc is a short-lived process whose one big allocator is the
    # translator, which collects its own garbage at each new parse
    # (pipeline.collected_per_parse): the last parse of a file is left to
    # the next file's first collection or to the exit, not collected when
    # the translation ends (a tenth of a second on a 5,000-line file).
    gc.disable()
    try:
        code = main()
    except SystemExit as e:
        code = e.code
    exit_now(code)
