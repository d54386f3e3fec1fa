#!/usr/bin/env python3
"""Differential testing of cpcc on programs of several files written elsewhere.

    multisource.py [-j N] [--workdir DIR] [--levels L,L...] PROGRAM_DIR...

A program is a directory in llvm-test-suite's MultiSource layout: its .c files, its headers,
its input files, and a CMakeLists.txt that may name the sources (`llvm_multisource(name
a.c b.c)`, else every .c file of the directory), the preprocessor flags (`-D`, `-I`, `-U` of
`list(APPEND CPPFLAGS ...)` and `list(APPEND CFLAGS ...)`), the C standard (the target's
`C_STANDARD` property, with GNU extensions), the arguments and the standard
input (the first `set(RUN_OPTIONS ...)`, often the small problem size, with `< FILE`; or
`set(STDIN_FILENAME ...)`).

The program is built natively (`cc -O1`) and run in a copy of its directory: its stdout and
exit status are the reference.  cpsify.transform_program then makes every function it can cps
across all the files, adding `cps` to their declarations in the program's own headers too, and
cpcc builds the result at each level of run.py; each build runs in a fresh copy of the
directory and must print what the native one printed.

The last line is `multisource: N passed, N skipped, N failed`; the status is 1 when something
failed.
"""
import glob
import importlib.util
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cpsify  # noqa: E402


def _foreign_run():
    """run.py of this directory, loaded by its path (tests/csmith has a run.py too)."""
    spec = importlib.util.spec_from_file_location('foreign_run', os.path.join(HERE, 'run.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


foreign = _foreign_run()

csmith_run = foreign.csmith_run
NATIVE_TIMEOUT = 20.0
KEPT_FLAGS = ('-D', '-I', '-U')
# CMake's C_STANDARD property, with its default GNU extensions (Burg is C90: `restrict` is
# one of its identifiers)
C_STANDARDS = {'90': 'gnu89', '99': 'gnu99', '11': 'gnu11', '17': 'gnu17', '23': 'gnu2x'}


# How the CMakeLists.txt files are read: commands in order, `if` on these options (the small
# problem size; any other condition is false), `set`, `list(APPEND)` and `${VAR}`.
CMAKE_TRUE = {'SMALL_PROBLEM_SIZE'}


def cmake_condition(words):
    neg = words[:1] == ['NOT']
    if neg:
        words = words[1:]
    return (words == [w for w in words if w in CMAKE_TRUE] and bool(words)) != neg


def cmake_variables(path):
    """The variables a CMakeLists.txt sets, with the small problem size."""
    with open(path, errors='replace') as f:
        text = re.sub(r'#[^\n]*', '', f.read())
    here = os.path.dirname(path)
    vars = {'CMAKE_CURRENT_SOURCE_DIR': here, 'PROG': ''}
    stack = []          # per open `if`: [this branch is taken, a branch was taken]

    def expand(s):
        return re.sub(r'\$\{(\w+)\}', lambda m: vars.get(m.group(1), ''), s)

    for m in re.finditer(r'(\w+)\s*\(([^)]*)\)', text):
        cmd, words = m.group(1).lower(), expand(m.group(2)).split()
        if cmd == 'if':
            taken = all(t for t, _ in stack) and cmake_condition(words)
            stack.append([taken, taken])
        elif cmd == 'elseif' and stack:
            taken = not stack[-1][1] and cmake_condition(words)
            stack[-1] = [taken, stack[-1][1] or taken]
        elif cmd == 'else' and stack:
            stack[-1] = [not stack[-1][1], True]
        elif cmd == 'endif' and stack:
            stack.pop()
        elif not all(t for t, _ in stack):
            continue
        elif cmd == 'set' and words:
            vars[words[0]] = ' '.join(w.strip('"') for w in words[1:])
        elif cmd == 'list' and words[:1] == ['APPEND'] and len(words) > 1:
            vars[words[1]] = (vars.get(words[1], '') + ' ' + ' '.join(words[2:])).strip()
        elif cmd == 'add_definitions':
            vars['CPPFLAGS'] = (vars.get('CPPFLAGS', '') + ' ' + ' '.join(words)).strip()
        elif cmd == 'llvm_multisource' and len(words) > 1:
            vars['SOURCES'] = ' '.join(words[1:])
        elif cmd == 'set_property' and words[-2:-1] == ['C_STANDARD']:
            vars['C_STANDARD'] = words[-1]
        elif cmd == 'llvm_test_data' and len(words) > 1:
            vars['DATA'] = (vars.get('DATA', '') + ' ' + ' '.join(words[1:])).strip()
    return vars


def cmake_settings(path):
    """(sources or None, preprocessor flags, argv, stdin file or None) of a CMakeLists.txt;
    None when a data file it names is missing (a fetched copy may lack large files)."""
    vars = cmake_variables(path)
    here = os.path.dirname(path)
    if any(not os.path.exists(os.path.join(here, d)) for d in vars.get('DATA', '').split()
           if not d.startswith('-')):
        return None
    flags = [w for w in (vars.get('CPPFLAGS', '') + ' ' + vars.get('CFLAGS', '')).split()
             if w.startswith(KEPT_FLAGS)]
    if vars.get('C_STANDARD') in C_STANDARDS:
        flags.append('-std=' + C_STANDARDS[vars['C_STANDARD']])
    argv = vars.get('RUN_OPTIONS', '').split()
    stdin = vars.get('STDIN_FILENAME') or None
    if '<' in argv:
        i = argv.index('<')
        stdin = argv[i + 1] if i + 1 < len(argv) else None
        argv = argv[:i] + argv[i + 2:]
    sources = [w for w in vars.get('SOURCES', '').split() if w.endswith('.c')] or None
    return sources, flags, argv, stdin


def settings(prog_dir):
    cm = os.path.join(prog_dir, 'CMakeLists.txt')
    if os.path.exists(cm):
        found = cmake_settings(cm)
        if found is None:
            return None
        sources, flags, argv, stdin = found
    else:
        sources, flags, argv, stdin = None, [], [], None
    if sources is None:
        sources = sorted(os.path.basename(p) for p in glob.glob(os.path.join(prog_dir, '*.c')))
    return sources, flags, argv, stdin


def run_in_copy(exe, prog_dir, d, argv, stdin, timeout, level=''):
    """Run exe in a fresh copy of the program's directory."""
    cwd = os.path.join(d, 'cwd')
    shutil.rmtree(cwd, ignore_errors=True)
    shutil.copytree(prog_dir, cwd, symlinks=True)
    data = None
    if stdin is not None:
        with open(os.path.join(cwd, stdin), 'rb') as f:
            data = f.read()
    env = dict(os.environ, **csmith_run.ASAN_ENV) if '+asan' in level else None
    # (under one name: programs print their argv[0]; a link, since a copy just
    # written may still be open in a child that another thread forks: ETXTBSY)
    os.symlink(exe, os.path.join(cwd, 'a.out'))
    return csmith_run.sh(['./a.out'] + argv, cwd=cwd, timeout=timeout, input=data, env=env)


def build_cps(src_dir, sources, flags, level, d):
    """cpcc on the program's files (in src_dir); (exe or None, class, log)."""
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, 'prog')
    files = [os.path.join(src_dir, s) for s in sources]
    if '+yield' in level:
        ydir = os.path.join(d, 'src')
        shutil.rmtree(ydir, ignore_errors=True)
        shutil.copytree(src_dir, ydir, symlinks=True)
        files = [os.path.join(ydir, s) for s in sources]
        for path in files:
            with open(path, 'rb') as f:
                text = f.read()
            with open(path, 'wb') as f:
                f.write(csmith_run.yieldify.yieldify(
                    text, path, (csmith_run.RUNTIME_INC, os.path.dirname(path))))
    rc, out, err, _ = csmith_run.sh(
        [csmith_run.CPCC] + csmith_run.cpcc_flags(level) +
        ['-w', '-std=gnu11', '-fcommon', '--cpc-check-invariants', '-I', src_dir] + flags +
        ['-o', exe, '-x', 'cpc'] + files + ['-x', 'none', '-lm'],
        cwd=d, timeout=csmith_run.COMPILE_TIMEOUT * 4,
        limit_memory='+asan' not in level)
    log = csmith_run.text(out) + csmith_run.text(err)
    if rc == 0:
        return exe, None, ''
    klass = csmith_run.build_failure(rc, log)
    if klass is None:
        # gcc's messages on the generated C name it (FILE.cpc.c); cpcc's, the source
        klass = 'gcc-error' if re.search(r'\.cpc\.c:\d+', log) else 'translator-diagnostic'
    return None, klass, log


def one(prog_dir, workdir, levels):
    """(name, 'ok' | 'skip' | 'fail', [(level, class, detail)] or reason)."""
    prog_dir = os.path.abspath(prog_dir)
    name = os.path.relpath(prog_dir, os.path.dirname(os.path.dirname(prog_dir)))
    d = os.path.join(workdir, name.replace(os.sep, '_'))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    found = settings(prog_dir)
    if found is None:
        return name, 'skip', 'a data file is missing'
    sources, flags, argv, stdin = found
    if not sources:
        return name, 'skip', 'no C sources'
    if stdin is not None and not os.path.exists(os.path.join(prog_dir, stdin)):
        return name, 'skip', 'no input file %s' % stdin
    exe = os.path.join(d, 'native')
    rc, _, err, _ = csmith_run.sh([csmith_run.CC, '-w', '-std=gnu11', '-fcommon', '-O1', '-I', prog_dir] +
                                  flags + ['-o', exe] +
                                  [os.path.join(prog_dir, s) for s in sources] + ['-lm'],
                                  timeout=300, limit_memory=True)
    if rc != 0:
        return name, 'skip', 'the native build fails: %s' % csmith_run.text(err, 200)
    native = run_in_copy(exe, prog_dir, os.path.join(d, 'native-run'), argv, stdin,
                         NATIVE_TIMEOUT)
    if native[0] is None:
        return name, 'skip', 'the native program runs over %gs' % NATIVE_TIMEOUT
    src_dir = os.path.join(d, 'src')
    shutil.copytree(prog_dir, src_dir, symlinks=True)
    texts = {}
    for s in sources:
        with open(os.path.join(src_dir, s), 'rb') as f:
            texts[os.path.join(src_dir, s)] = f.read()
    own = lambda p: os.path.abspath(p).startswith(src_dir + os.sep)  # noqa: E731
    try:
        out = cpsify.transform_program(texts, own, ['-I', src_dir] + flags)
    except cpsify.CpsifyError as e:
        return name, 'skip', 'cpsify: %s' % str(e).splitlines()[0]
    for path, text in out.items():
        with open(path, 'wb') as f:
            f.write(text)
    failures = []
    for level in levels:
        ld = os.path.join(d, csmith_run.level_dir(level))
        prog, klass, detail = build_cps(src_dir, sources, flags, level, ld)
        if prog is None:
            failures.append((level, klass, detail))
            continue
        result = run_in_copy(prog, prog_dir, ld, argv, stdin,
                             csmith_run.cpc_timeout(native[3]), level)
        klass, detail = csmith_run.compare(native, result)
        if klass is not None:
            failures.append((level, klass, detail))
    return name, ('fail' if failures else 'ok'), failures


def main(argv=None):
    return foreign.campaign(argv, one, 'multisource', 'programs', print_ok=True)


if __name__ == '__main__':
    sys.exit(main())
