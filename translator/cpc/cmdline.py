"""cpcc's command line: which words are options, for which command they are
(the C compiler, the front-end, the link), and the Options a run of cpcc
follows (`parse_args`); also which C compiler cpcc runs (`c_compiler`) and
how it reports a usage error (`die`).  driver.py runs what they ask for."""
import os
import shlex
import shutil
import sys


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
    """The value of option `--name=value` when it is one of `allowed`."""
    name, _, value = arg.partition('=')
    if value not in allowed:
        die('%s must be %s or %s' % (name, ', '.join(allowed[:-1]), allowed[-1]))
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
