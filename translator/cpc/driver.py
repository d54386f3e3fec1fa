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
import shutil
import subprocess
import sys
import tempfile

from . import frontend as fe
from . import paths
from .cmdline import CC_GUARD, FRONTEND_MACRO_FLAG, c_compiler, die, parse_args

TOP = paths.CHECKOUT
RUNTIME_INC = paths.INCLUDE_DIR


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
