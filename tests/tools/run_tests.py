"""Tests of tools/cpc-check: each case runs the checker on inputs/ and
compares its stdout, stderr and exit status with expected/NAME.out.

    python tests/tools/run_tests.py            # run (from anywhere)
    python tests/tools/run_tests.py --update   # rewrite expected/ files

Most cases run in-process (one libclang load: fast); the `sh:` cases run
the tools/cpc-check wrapper itself, for bad input and exit statuses.  The
patch case applies the --infer=patch output to a copy of its inputs and
checks that no missing annotation is left.
"""
import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.abspath(os.path.join(HERE, '..', '..'))
sys.path[:0] = [os.path.join(TOP, 'translator'), os.path.join(TOP, 'tools')]

IN = 'tests/tools/inputs/'
# written by write_project_db(): inputs/project's compilation database,
# each file with its own -I and -D
PROJECT_DB = 'build/tests/tools/project'
QEMU = ['--coroutine-attr', 'coroutine_fn']

CASES = [
    # name, argv (paths relative to the top of the checkout)
    ('fig3_check', QEMU + [IN + 'corocheck_fig3.c']),
    ('fig3_infer', QEMU + ['-q', '--infer', IN + 'corocheck_fig3.c']),
    ('fig3_list', QEMU + ['-q', '--infer=list', IN + 'corocheck_fig3.c']),
    ('fig3_dot', QEMU + ['-q', '--dot', '-', IN + 'corocheck_fig3.c']),
    ('fig3_no_spurious', QEMU + ['--no-spurious', '-w', IN + 'corocheck_fig3.c']),
    ('fig3_primitive', QEMU + ['--primitive', 'spurious', '--entry', 'missing',
                               IN + 'corocheck_fig3.c']),
    ('cpc_check', [IN + 'cpc_basic.cpc']),
    ('cpc_infer', ['-q', '--infer', IN + 'cpc_basic.cpc']),
    ('cpc_dot', ['-q', '--dot', '-', IN + 'cpc_basic.cpc']),
    ('cpc_clean', [IN + 'cpc_clean.cpc']),
    ('qemu_check', QEMU + [IN + 'qemu_block.c']),
    ('qemu_patch', QEMU + ['-q', '--infer=patch', IN + 'qemu_block.c']),
    ('btf_tags', QEMU + ['--infer', IN + 'btf_tags.c']),
    ('attr_names', ['--coroutine-attr', 'co', '--blocking-attr', 'nb', '--dot', '-',
                    IN + 'attr_names.c']),
    ('c_mode', [IN + 'c_mode.c']),
    ('multi_file', QEMU + ['--infer', IN + 'multi_a.c', IN + 'multi_b.c']),
    ('native_opt', QEMU + ['--native', 'step', '--infer', IN + 'multi_a.c', IN + 'multi_b.c']),
    ('clang_args', QEMU + [IN + 'defines.c', '--', '-DWITH_CORO', '-I' + IN + 'inc']),
    ('warn_only', QEMU + [IN + 'warn_only.c']),
    ('werror', QEMU + ['--werror', IN + 'warn_only.c']),
    ('sh:missing_file', [IN + 'no_such_file.c']),
    ('sh:parse_error', [IN + 'parse_error.c']),
    ('sh:usage', ['--infer=bogus', IN + 'multi_a.c']),
    ('sh:no_files', []),
    ('sh:bad_attr', ['--coroutine-attr', 'not a name', IN + 'multi_a.c']),
    ('sh:nested', [IN + 'nested.cpc']),
    ('cps_tables', [IN + 'cps_tables.cpc']),
    ('need_cont', [IN + 'need_cont.cpc']),
    ('fig5_lock_model', QEMU + ['--dot', '-', IN + 'fig5_lock_model.c']),
    # the QEMU coroutine backend's own CPC code is consistently annotated
    ('qemu_lock', ['--coroutine-attr', 'cps', '--coroutine-attr', 'coroutine_fn',
                   '-I', 'lib/qemu', '--dot', '-', 'lib/qemu/lock.cpc', 'lib/qemu/sleep.cpc']),
    ('transitive', QEMU + [IN + 'transitive.c']),
    ('hybrid_assert', QEMU + [IN + 'hybrid_assert.c']),
    ('primitive_here', QEMU + ['--infer', IN + 'primitive_here.c']),
    ('header_unannotated', QEMU + [IN + 'header_unannotated.c']),
    ('native_by_use', QEMU + ['--infer', IN + 'native_by_use.c']),
    ('slot_callbacks', QEMU + ['--infer', IN + 'fix_slots/drivers.c']),
    ('slots_patch', QEMU + ['-q', '--infer=patch', IN + 'fix_slots/drivers.c']),
    ('project_db', QEMU + ['-p', PROJECT_DB]),
    ('project_db_one', QEMU + ['-p', PROJECT_DB, IN + 'project/b.c']),
    ('sh:project_db_missing', ['-p', IN + 'project']),
    ('sh:project_db_not_listed', ['-p', PROJECT_DB, IN + 'multi_a.c']),
]


def run_inproc(argv):
    import cpc_check
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cpc_check.run(list(argv))
        except SystemExit as e:
            code = e.code
    return out.getvalue(), err.getvalue(), code


def run_sh(argv):
    env = dict(os.environ, COLUMNS="80")
    p = subprocess.run([os.path.join(TOP, 'tools', 'cpc-check')] + list(argv), cwd=TOP,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return p.stdout, p.stderr, p.returncode


def render(argv, out, err, code):
    return '$ cpc-check %s\n--- stdout\n%s--- stderr\n%s--- exit %s\n' % (
        ' '.join(argv), out, err, code)


def check_patch():
    """Apply the inferred patch to copies of the inputs: afterwards no
    missing annotation remains."""
    tmp = tempfile.mkdtemp(prefix='cpc-check-')
    try:
        for f in ('qemu_block.c', 'qemu_block.h'):
            shutil.copy(os.path.join(HERE, 'inputs', f), tmp)
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            out, err, code = run_inproc(QEMU + ['-q', '--infer=patch', 'qemu_block.c'])
            if code != 1 or not out:
                return 'no patch produced (exit %s)' % code
            p = subprocess.run(['patch', '-s', '-p0'], input=out, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if p.returncode != 0:
                return 'patch does not apply: ' + p.stdout
            out, err, code = run_inproc(QEMU + ['--infer', 'qemu_block.c'])
            if 'missing-annotation' in err or out:
                return 'annotations still missing after the patch:\n' + err + out
        finally:
            os.chdir(cwd)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return None


# --fix cases: (name of expected/NAME.out and of the directory of inputs/
# copied, the file given to cpc-check)
FIX_CASES = [('fix', 'lib.c'), ('fix_slots', 'drivers.c')]


def run_fix(name='fix', main='lib.c'):
    """cpc-check --fix on a copy of inputs/NAME: the diff it makes (compared
    with expected/NAME.out), and a check of the result."""
    import difflib
    tmp = tempfile.mkdtemp(prefix='cpc-check-fix-')
    try:
        src = os.path.join(HERE, 'inputs', name)
        names = sorted(os.listdir(src))
        for f in names:
            shutil.copy(os.path.join(src, f), tmp)
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            out, err, code = run_inproc(QEMU + ['--fix', main])
            diff = []
            for f in names:
                a = open(os.path.join(src, f)).read().splitlines(True)
                b = open(f).read().splitlines(True)
                diff += difflib.unified_diff(a, b, 'a/' + f, 'b/' + f, n=0)
            out2, err2, code2 = run_inproc(QEMU + [main])
        finally:
            os.chdir(cwd)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return ('$ cpc-check --coroutine-attr coroutine_fn --fix %s  (a copy of inputs/%s)\n'
            '--- stdout\n%s--- stderr\n%s--- exit %s\n--- the files after it\n%s'
            '--- cpc-check on them\n%s%s--- exit %s\n' % (
                main, name, out, err, code, ''.join(diff), out2, err2, code2))


def check_cpc_headers_untouched():
    """cpc-check --fix on a copy of inputs/fix_cpc_header, which stores a
    runtime function where a cooperative one is expected: the error is
    reported, and neither CPC's headers (a copy of them stands for the
    runtime's include directory) nor the file are edited.  None if so."""
    from cpc import frontend
    tmp = tempfile.mkdtemp(prefix='cpc-check-hdr-')
    saved, cwd = frontend.RUNTIME_INCLUDE, os.getcwd()
    try:
        inc = os.path.join(tmp, 'include')
        shutil.copytree(saved, inc)
        src = os.path.join(HERE, 'inputs', 'fix_cpc_header', 'store.c')
        shutil.copy(src, tmp)
        frontend.RUNTIME_INCLUDE = inc
        os.chdir(tmp)
        out, err, code = run_inproc(QEMU + ['--fix', 'store.c'])
        if code != 1 or 'non-coroutine_fn `cpc_scheduler_run_once`' not in err:
            return 'exit %s, %s' % (code, (out + err)[-500:])
        for d, _dirs, files in os.walk(inc):
            for f in files:
                rel = os.path.relpath(os.path.join(d, f), inc)
                with open(os.path.join(d, f), 'rb') as a, \
                        open(os.path.join(saved, rel), 'rb') as b:
                    if a.read() != b.read():
                        return 'CPC\'s header %s was edited' % rel
        if open('store.c', 'rb').read() != open(src, 'rb').read():
            return 'store.c was edited'
        return None
    finally:
        frontend.RUNTIME_INCLUDE = saved
        os.chdir(cwd)
        shutil.rmtree(tmp, ignore_errors=True)


def write_project_db():
    import json
    proj = os.path.join(TOP, IN, 'project')
    db = [
        {'directory': proj, 'file': 'a.c',
         'command': 'cc -O2 -Wall -Iinclude_a -DA_ONLY=1 -c a.c -o a.o'},
        {'directory': proj, 'file': os.path.join(proj, 'b.c'),
         'arguments': ['cc', '-I', 'include_b', '-std=gnu11', '-c', 'b.c', '-o', 'b.o']},
        {'directory': proj, 'file': 'notes.txt', 'command': 'true'},
    ]
    out = os.path.join(TOP, PROJECT_DB)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, 'compile_commands.json'), 'w') as fh:
        json.dump(db, fh, indent=1)


def main():
    update = '--update' in sys.argv[1:]
    os.chdir(TOP)
    write_project_db()
    fails = 0
    for name, argv in CASES:
        if name.startswith('sh:'):
            name = name[3:]
            out, err, code = run_sh(argv)
        else:
            out, err, code = run_inproc(argv)
        got = render(argv, out, err, code)
        path = os.path.join(HERE, 'expected', name + '.out')
        if update:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as fh:
                fh.write(got)
            continue
        try:
            with open(path) as fh:
                want = fh.read()
        except OSError:
            want = None
        failed = False
        if got != want:
            failed = True
            print('FAIL %s' % name)
            if want is None:
                print('  (no expected/%s.out; run with --update)' % name)
            else:
                import difflib
                sys.stdout.writelines(difflib.unified_diff(
                    want.splitlines(True), got.splitlines(True), 'expected', 'got'))
        if 'Traceback' in err:
            failed = True
            print('FAIL %s: traceback' % name)
        fails += failed
    for fname, fmain in FIX_CASES:
        got = run_fix(fname, fmain)
        path = os.path.join(HERE, 'expected', fname + '.out')
        if update:
            with open(path, 'w') as fh:
                fh.write(got)
        else:
            want = open(path).read() if os.path.exists(path) else None
            if got != want:
                fails += 1
                print('FAIL %s' % fname)
                import difflib
                sys.stdout.writelines(difflib.unified_diff(
                    (want or '').splitlines(True), got.splitlines(True), 'expected', 'got'))
    if not update:
        r = check_patch()
        if r:
            fails += 1
            print('FAIL patch_applies: ' + r)
        r = check_cpc_headers_untouched()
        if r:
            fails += 1
            print('FAIL fix_cpc_header: ' + r)
    total = len(CASES) + len(FIX_CASES) + 2
    if update:
        print('tests/tools: expected outputs updated (%d cases)' % len(CASES))
        return 0
    print('tests/tools: %d of %d passed' % (total - fails, total))
    return 1 if fails else 0


if __name__ == '__main__':
    sys.exit(main())
