"""The cpcc driver takes gcc's options as cc does: an option's argument may be
the next word, and it then goes where cc would send it (compiler, front-end or
link command), never to the linker as an input file.  One behaviour per test.

Most tests run bin/cpcc with CC set to a recorder that logs each command it is
given (and creates the output file), so the test sees the commands exactly;
the others build and run real programs."""
import json
import os
import re
import subprocess
import sys

import pytest

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
CPCC = os.path.join(TOP, 'bin', 'cpcc')

RECORDER = '''#!%s
import json, sys
with open(%r, 'a') as f:
    f.write(json.dumps(sys.argv[1:]) + '\\n')
args = sys.argv[1:]
if '-o' in args:
    open(args[args.index('-o') + 1], 'w').close()
'''

CPS_PROG = ('#include <stdio.h>\n#include <cpc/cpc_runtime.h>\n'
            'cps void f(void) { cpc_yield(); printf("%d\\n", VALUE); }\n'
            'int main(void) { cpc_spawn f(); cpc_main_loop(); return 0; }\n')


def cpcc(args, cwd, env=None):
    return subprocess.run([CPCC] + args, cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ, **(env or {})))


@pytest.fixture
def rec(tmp_path):
    """Run cpcc with a recording CC; returns (result, [commands])."""
    log = tmp_path / 'cc.log'
    cc = tmp_path / 'fakecc'
    cc.write_text(RECORDER % (sys.executable, str(log)))
    cc.chmod(0o755)

    def go(args):
        r = cpcc(args, tmp_path, {'CC': str(cc)})
        cmds = [json.loads(line) for line in log.read_text().splitlines()] \
            if log.exists() else []
        if log.exists():
            log.unlink()
        return r, cmds
    return go


def link_cmd(cmds):
    return [c for c in cmds if '-c' not in c and '-S' not in c and '-E' not in c][-1]


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def build_and_run(tmp_path, args):
    r = cpcc(args + ['-o', 'prog'], tmp_path)
    assert r.returncode == 0, r.stderr
    return subprocess.run([str(tmp_path / 'prog')], capture_output=True, text=True).stdout


# --- the front-end sees the preprocessing options, in both spellings ---

def test_separate_include_dir_reaches_front_end(tmp_path):
    write(tmp_path / 'inc' / 'v.h', '#define VALUE 41\n')
    write(tmp_path / 'p.cpc', '#include "v.h"\n' + CPS_PROG)
    assert build_and_run(tmp_path, ['-I', 'inc', 'p.cpc']) == '41\n'


def test_separate_define_reaches_front_end(tmp_path):
    write(tmp_path / 'p.cpc', CPS_PROG)
    assert build_and_run(tmp_path, ['-D', 'VALUE=7', 'p.cpc']) == '7\n'


def test_separate_undefine_removes_an_earlier_define(tmp_path):
    write(tmp_path / 'p.cpc', '#ifndef W\n#define VALUE 2\n#else\n#define VALUE W\n#endif\n'
          + CPS_PROG)
    assert build_and_run(tmp_path, ['-D', 'W=5', '-U', 'W', 'p.cpc']) == '2\n'


@pytest.mark.parametrize('flag, macro', [('--cpc-debug', 'CPC_DEBUG'),
                                         ('--frames=packed', 'CPC_PACKED_FRAMES')])
def test_macro_cpcc_defines_for_cc_reaches_front_end(tmp_path, flag, macro):
    # A macro whose argument makes a cps call has the function reprinted
    # from the front-end's parse: its conditionals must see the macros the
    # C compiler will see.
    write(tmp_path / 'p.cpc', (
        '#include <stdio.h>\n#include <cpc/cpc_runtime.h>\n'
        '#define SHOW(x) printf("%%d\\n", x)\n'
        'cps int one(void) { cpc_yield(); return 1; }\n'
        'cps void f(void) {\n    SHOW(one());\n'
        '#ifdef %s\n    puts("on");\n#else\n    puts("off");\n#endif\n}\n'
        'int main(void) { cpc_spawn f(); cpc_main_loop(); return 0; }\n') % macro)
    assert build_and_run(tmp_path, [flag, 'p.cpc']) == '1\non\n'
    assert build_and_run(tmp_path, ['p.cpc']) == '1\noff\n'


def test_separate_include_file_is_included_first(tmp_path):
    write(tmp_path / 'pre.h', '#define VALUE 13\n')
    write(tmp_path / 'p.cpc', CPS_PROG)
    assert build_and_run(tmp_path, ['-include', 'pre.h', 'p.cpc']) == '13\n'


def test_separate_imacros_file_defines_macros(tmp_path):
    write(tmp_path / 'm.h', '#define VALUE 17\n')
    write(tmp_path / 'p.cpc', CPS_PROG)
    assert build_and_run(tmp_path, ['-imacros', 'm.h', 'p.cpc']) == '17\n'


@pytest.mark.parametrize('opt', ['-isystem', '-iquote', '-idirafter'])
def test_separate_include_path_options_reach_front_end(tmp_path, opt):
    write(tmp_path / 'sys' / 'v.h', '#define VALUE 23\n')
    write(tmp_path / 'p.cpc', '#include "v.h"\n' + CPS_PROG)
    assert build_and_run(tmp_path, [opt, 'sys', 'p.cpc']) == '23\n'


def test_long_option_spellings_are_understood(tmp_path):
    write(tmp_path / 'inc' / 'v.h', '#define VALUE (BASE + 1)\n')
    write(tmp_path / 'p.cpc', '#include "v.h"\n' + CPS_PROG)
    r = cpcc(['--include-directory', 'inc', '--define-macro=BASE=30', 'p.cpc',
              '--output', 'prog'], tmp_path)
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(tmp_path / 'prog')], capture_output=True,
                          text=True).stdout == '31\n'


# --- arguments go where cc sends them, never to the linker as inputs ---

@pytest.mark.parametrize('opt,val', [
    ('-I', 'incdir'), ('-D', 'X=1'), ('-U', 'X'), ('-include', 'pre.h'),
    ('-imacros', 'pre.h'), ('-isystem', 'incdir'), ('-iquote', 'incdir'),
    ('-idirafter', 'incdir'), ('-Xassembler', '--noexecstack'),
    ('-Xpreprocessor', '-DZ=1'), ('-aux-info', 'aux.txt')])
def test_compile_only_option_argument_stays_out_of_link(rec, tmp_path, opt, val):
    write(tmp_path / 'pre.h', '\n')
    (tmp_path / 'incdir').mkdir()
    write(tmp_path / 'm.c', 'int main(void) { return 0; }\n')
    r, cmds = rec([opt, val, 'm.c', '-o', 'prog'])
    assert r.returncode == 0, r.stderr
    comp = cmds[0]
    assert comp[comp.index(opt) + 1] == val
    assert val not in link_cmd(cmds)


@pytest.mark.parametrize('opt,val', [
    ('-L', 'libdir'), ('-l', 'm'), ('-Xlinker', '--no-undefined'), ('-T', 'script.ld'),
    ('-e', 'main'), ('-u', 'sym'), ('-z', 'now')])
def test_link_option_argument_goes_to_link_only(rec, tmp_path, opt, val):
    write(tmp_path / 'm.c', 'int main(void) { return 0; }\n')
    r, cmds = rec([opt, val, 'm.c', '-o', 'prog'])
    assert r.returncode == 0, r.stderr
    assert val not in cmds[0]
    link = link_cmd(cmds)
    assert link[link.index(opt) + 1] == val


def test_library_keeps_its_place_after_the_objects_that_need_it(rec, tmp_path):
    write(tmp_path / 'm.c', 'int main(void) { return 0; }\n')
    r, cmds = rec(['-L', 'libdir', 'm.c', '-l', 'm', 'extra.o', '-o', 'prog'])
    link = link_cmd(cmds)
    obj = [w for w in link if w.endswith('_m.o')][0]
    assert link.index('-L') < link.index(obj) < link.index('-l') < link.index('extra.o')


def test_param_goes_to_compile_and_link(rec, tmp_path):
    write(tmp_path / 'm.c', 'int main(void) { return 0; }\n')
    r, cmds = rec(['--param', 'max-inline-insns-single=10', 'm.c', '-o', 'prog'])
    for c in (cmds[0], link_cmd(cmds)):
        assert c[c.index('--param') + 1] == 'max-inline-insns-single=10'


def test_joined_output_option_names_the_output(rec, tmp_path):
    write(tmp_path / 'm.c', 'int main(void) { return 0; }\n')
    r, cmds = rec(['m.c', '-oprog'])
    link = link_cmd(cmds)
    assert link[link.index('-o') + 1] == 'prog'
    assert '-oprog' not in cmds[0]


def test_separate_output_option_names_the_object_with_c(rec, tmp_path):
    write(tmp_path / 'm.c', 'int main(void) { return 0; }\n')
    r, cmds = rec(['-c', '-o', 'out.o', 'm.c'])
    assert cmds[0][cmds[0].index('-o') + 1] == 'out.o'
    assert len(cmds) == 1


def test_missing_argument_is_an_error_message(tmp_path):
    r = cpcc(['m.c', '-I'], tmp_path)
    assert r.returncode != 0
    assert "cpcc: error: missing argument to '-I'" in r.stderr
    assert 'Traceback' not in r.stderr


def test_runtime_library_option_is_not_linked_twice(rec, tmp_path):
    write(tmp_path / 'm.c', 'int main(void) { return 0; }\n')
    r, cmds = rec(['m.c', '-l', 'cpc', '-o', 'prog'])
    assert 'cpc' not in link_cmd(cmds)


# --- -x: the language of the inputs that follow ---

def test_language_c_compiles_a_file_of_another_suffix(tmp_path):
    write(tmp_path / 'm.src', '#include <stdio.h>\nint main(void) { puts("x-c"); return 0; }\n')
    assert build_and_run(tmp_path, ['-x', 'c', 'm.src']) == 'x-c\n'


def test_language_none_returns_to_suffixes(rec, tmp_path):
    write(tmp_path / 'm.src', 'int main(void) { return 0; }\n')
    r, cmds = rec(['-x', 'c', 'm.src', '-x', 'none', 'lib.a', '-o', 'prog'])
    assert len([c for c in cmds if '-c' in c]) == 1
    assert 'lib.a' in link_cmd(cmds)
    assert '-x' not in link_cmd(cmds)


def test_language_cpc_translates_a_file_of_another_suffix(tmp_path):
    write(tmp_path / 'p.txt', CPS_PROG)
    assert build_and_run(tmp_path, ['-DVALUE=3', '-x', 'cpc', 'p.txt']) == '3\n'


# --- dependency options ---

def test_separate_dependency_file_and_target(tmp_path):
    write(tmp_path / 'v.h', '#define VALUE 1\n')
    write(tmp_path / 'p.cpc', '#include "v.h"\n' + CPS_PROG)
    r = cpcc(['-c', '-MMD', '-MF', 'deps.d', '-MT', 'tgt.o', 'p.cpc', '-o', 'p.o'], tmp_path)
    assert r.returncode == 0, r.stderr
    deps = (tmp_path / 'deps.d').read_text()
    assert deps.startswith('tgt.o:')
    assert 'p.cpc' in deps and 'v.h' in deps


def test_separate_quoted_target(tmp_path):
    write(tmp_path / 'p.cpc', CPS_PROG.replace('VALUE', '1'))
    r = cpcc(['-c', '-MD', '-MQ', '$tgt.o', 'p.cpc', '-o', 'p.o'], tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / 'p.d').read_text().startswith('$$tgt.o:')


# --- the translator never prints a traceback ---

NON_UTF8 = (b'#include <stdio.h>\n#include <cpc/cpc_runtime.h>\n'
            b'/* caf\xe9 \xff */\n'
            b'cps void f(void) { cpc_yield(); printf("[\xe9\xfe]\\n"); }\n'
            b'int main(void) { cpc_spawn f(); cpc_main_loop(); return 0; }\n')


def test_bytes_that_are_not_utf8_pass_through_unchanged(tmp_path):
    (tmp_path / 'p.cpc').write_bytes(NON_UTF8)
    r = subprocess.run([CPCC, 'p.cpc', '-o', 'prog'], cwd=tmp_path, capture_output=True)
    assert r.returncode == 0, r.stderr
    out = subprocess.run([str(tmp_path / 'prog')], capture_output=True).stdout
    assert out == b'[\xe9\xfe]\n'


def test_unexpected_error_is_one_line_with_the_file_name(tmp_path, monkeypatch, capsys):
    sys.path.insert(0, os.path.join(TOP, 'translator'))
    from cpc import driver, translate

    def broken(*a, **k):
        raise RuntimeError('simulated failure\nsecond line')
    monkeypatch.setattr(translate, 'translate', broken)
    write(tmp_path / 'p.cpc', CPS_PROG)
    monkeypatch.chdir(tmp_path)
    status = driver.main(['-c', 'p.cpc', '-o', 'p.o'])
    err = capsys.readouterr().err
    assert status != 0
    assert err == 'p.cpc: cpcc: internal error: RuntimeError: simulated failure\n'


# --- cpcc never runs itself as its C compiler ---

def run_bounded(cmd, cwd, env, timeout=30):
    """Run cmd in a session of its own; on timeout kill the whole session (a
    cpcc running itself would leave a chain of cpccs behind)."""
    import signal
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        pytest.fail('%s did not finish in %ds' % (cmd, timeout))
    return p.returncode, out, err


def test_cc_naming_cpcc_compiles_with_cc(tmp_path):
    # `make CC=cpcc` exports CC=cpcc to every command, cpcc's own included
    write(tmp_path / 'p.cpc', CPS_PROG.replace('VALUE', '42'))
    rc, out, err = run_bounded([CPCC, 'p.cpc', '-o', 'prog'], tmp_path,
                               dict(os.environ, CC=CPCC))
    assert rc == 0, err
    run = subprocess.run([str(tmp_path / 'prog')], capture_output=True, text=True)
    assert run.stdout == '42\n'


def test_cc_wrapper_running_cpcc_is_refused(tmp_path):
    wrapper = tmp_path / 'mycc'
    wrapper.write_text('#!/bin/sh\nexec %s "$@"\n' % CPCC)
    wrapper.chmod(0o755)
    write(tmp_path / 'p.cpc', CPS_PROG.replace('VALUE', '1'))
    rc, out, err = run_bounded([CPCC, '-c', 'p.cpc'], tmp_path,
                               dict(os.environ, CC=str(wrapper)))
    assert rc != 0
    assert 'cpcc: error: cpcc was started as the C compiler of cpcc' in err


def test_cpcc_cc_overrides_cc(tmp_path):
    log = tmp_path / 'cc.log'
    cc = tmp_path / 'fakecc'
    cc.write_text(RECORDER % (sys.executable, str(log)))
    cc.chmod(0o755)
    write(tmp_path / 'x.c', 'int x;\n')
    r = cpcc(['-c', 'x.c'], tmp_path, {'CPCC_CC': str(cc), 'CC': '/nonexistent/cc'})
    assert r.returncode == 0, r.stderr
    assert [json.loads(line)[-3:] for line in log.read_text().splitlines()] == \
        [['x.c', '-o', 'x.o']]


def test_cc_with_arguments_is_split_into_words(tmp_path):
    write(tmp_path / 'p.cpc', CPS_PROG.replace('VALUE', '7'))
    rc, out, err = run_bounded([CPCC, 'p.cpc', '-o', 'prog'], tmp_path,
                               dict(os.environ, CC='cc -DVALUE_UNUSED=1'))
    assert rc == 0, err
    assert subprocess.run([str(tmp_path / 'prog')], capture_output=True,
                          text=True).stdout == '7\n'


# --- the driver as cc users expect it ---

def test_version_names_cpc_and_its_c_compiler(tmp_path):
    r = cpcc(['--version'], tmp_path, {'CC': 'gcc'})
    assert r.returncode == 0, r.stderr
    first, second = r.stdout.splitlines()[:2]
    assert re.fullmatch(r'cpcc \(CPC\) \d+\.\d+\.\d+', first), first
    assert second.endswith('C compiler: gcc'), second


def test_help_describes_cpc_options(tmp_path):
    r = cpcc(['--help'], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith('Usage: cpcc [options] file...')
    for opt in ('-x cpc', '--cpc-emit-c', '--cpc-debug', '-E'):
        assert opt in r.stdout, opt


E_PROG = ('#include <cpc/cpc_runtime.h>\n#define N 3\n'
          'cps void f(int i) { cpc_yield(); }\n'
          'int main(void) { cpc_spawn f(N); cpc_main_loop(); return 0; }\n')


def test_E_prints_the_preprocessed_cpc_keeping_its_keywords(tmp_path):
    write(tmp_path / 'e.cpc', E_PROG)
    r = cpcc(['-E', 'e.cpc'], tmp_path)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert 'cps void f(int i) { cpc_yield(); }' in lines
    assert 'int main(void) { cpc_spawn f(3); cpc_main_loop(); return 0; }' in lines
    assert 'cps void cpc_yield(void);' in lines       # the header, as CPC
    assert 'f__cps' not in r.stdout                   # nothing translated


def test_E_with_output_file(tmp_path):
    write(tmp_path / 'e.cpc', E_PROG)
    r = cpcc(['-E', 'e.cpc', '-o', 'e.i'], tmp_path)
    assert r.returncode == 0 and r.stdout == '', r.stderr
    assert 'cpc_spawn f(3);' in (tmp_path / 'e.i').read_text()


def test_cpc_emit_c_prints_the_translated_c(tmp_path):
    write(tmp_path / 'e.cpc', E_PROG)
    r = cpcc(['--cpc-emit-c', 'e.cpc'], tmp_path)
    assert r.returncode == 0, r.stderr
    assert 'f__cps(' in r.stdout and 'cpc_spawn_continuation(' in r.stdout
    assert not (tmp_path / 'a.out').exists()


def test_the_c_printed_to_standard_output_is_whole_at_the_exit(tmp_path):
    # (cpcc ends without the interpreter's teardown: driver.exit_now
    # flushes the standard streams first)
    (tmp_path / 'p.cpc').write_text(CPS_PROG.replace('VALUE', '7') * 1 +
                                    ''.join('cps int g%d(int x) { cpc_yield(); return x + %d; }\n'
                                            % (i, i) for i in range(300)))
    printed = cpcc(['--cpc-emit-c', 'p.cpc'], tmp_path)
    written = cpcc(['--cpc-emit-c', 'p.cpc', '-o', 'p.c'], tmp_path)
    assert printed.returncode == 0 and written.returncode == 0, printed.stderr
    assert len(printed.stdout) > 65536
    assert printed.stdout == (tmp_path / 'p.c').read_text()


def test_an_error_exits_with_status_1_and_its_message(tmp_path):
    r = cpcc(['-c', 'missing.cpc'], tmp_path)
    assert r.returncode == 1
    assert r.stderr == 'cpcc: error: missing.cpc: No such file or directory\n'


LOOP_PROG = ('#include <cpc/cpc_runtime.h>\n'
             'cps int loop(int n) { int s = 0; for (int i = 0; i < n; i++) { cpc_yield(); s += i; }'
             ' return s; }\n')


@pytest.mark.parametrize('flags,resident', [
    ([], False), (['-O0'], False), (['-Og'], False), (['-O1'], True), (['-O2'], True),
    (['-Os'], True), (['-O2', '-O0'], False), (['-O0', '-O3'], True),
    (['-O2', '--dataflow=lifting'], False), (['-O0', '--dataflow=frame'], True)])
def test_optimised_code_keeps_variables_in_the_frame_by_default(tmp_path, flags, resident):
    (tmp_path / 'l.cpc').write_text(LOOP_PROG)
    r = cpcc(flags + ['--cpc-emit-c', 'l.cpc'], tmp_path)
    assert r.returncode == 0, r.stderr
    # frame-resident: s is assigned in its field; lifted: restored from it
    assert ('cpc_f->s = 0;' in r.stdout) == resident
    assert ('s = cpc_f->s;' in r.stdout) == (not resident)
