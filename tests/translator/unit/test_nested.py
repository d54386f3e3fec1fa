"""Nested functions: lifting them, their errors (finding them: test_nestscan.py)."""
import os
import re
import subprocess
import tempfile

import pytest

from cpc import frontend as fe
from cpc import nested
from cpc import translate

HDR = '#include <cpc/cpc_runtime.h>\n'
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))


def lift(src):
    return nested.lift((HDR + src).encode(), 't.cpc').decode()


def errors(src):
    with pytest.raises(fe.Diags) as e:
        translate.translate((HDR + src).encode(), 't.cpc')
    return [(d.line, d.msg) for d in e.value.diags]


def test_file_without_nested_functions_is_unchanged():
    src = HDR + 'int f(int x) { return x; }\n'
    assert nested.lift(src.encode(), 't.cpc') == src.encode()


def test_enclosing_function_keeps_its_lines():
    src = ('int f(int n) {\n int add(int x)\n {\n  return x + n;\n }\n'
           ' int after_the_definition = add(1);\n return after_the_definition; }\n')
    out = lift(src)
    body = out[out.index('int f(int n) {'):]
    body = body[:body.index('}\n', body.index('after_the_definition;')) + 1]
    assert body.count('\n') == src[:src.index('; }\n') + 3].count('\n')
    assert re.search(r'#line 2 "t.cpc"\nint f\(int n\) \{', out)


@pytest.mark.parametrize('name', ['args', 'resume_2', 'lines', 'dead', 'need_cont', 'tag_1_t',
                                  'spawn_3', 'frame'])
def test_every_generated_suffix_is_avoided(name):
    # (f__lines and f__dead are the tables of a cps function's resume points,
    # f__args its entry's arguments, f__need_cont an alias, ...)
    out = lift('int f(void) {\n int %s(void) { return 1; }\n return %s(); }\n' % (name, name))
    assert 'f__%s__nested' % name in out, out


@pytest.mark.parametrize('src, line, msg', [
    ('typedef int (*fp)(void);\nfp f(int x) {\n int g(void) { return x; }\n return g; }\n',
     5, 'is returned from `f`'),
    ('int (*keep)(void);\nvoid f(int x) {\n int g(void) { return x; }\n keep = g; }\n',
     5, 'is stored in `keep`'),
    ('struct ops { int (*get)(void); } ops;\nvoid f(int x) {\n int g(void) { return x; }\n ops.get = g; }\n',
     5, 'is stored in `ops`'),
    ('cps void f(int x) {\n int g(void) { return x; }\n int (*p)(void) = g;\n cpc_yield(); p(); }\n',
     4, 'can only be passed to a native function call'),
    ('void f(void) {\n struct t { int a; } s;\n int g(void) { return s.a; }\n g(); }\n',
     3, 'cannot be named at file scope'),
])
def test_addresses_and_types_that_cannot_work_are_errors(src, line, msg):
    errs = errors(src)
    assert len(errs) == 1 and errs[0][0] == line and msg in errs[0][1], errs


def test_compiler_messages_point_at_nested_function_lines():
    src = (HDR + 'cps void outer(int n) {\n'          # line 2
           '    int count = 0;\n'
           '    void add(int k) {\n'
           '        int unused_here;\n'              # line 5
           '        count += k;\n'
           '    }\n'
           '    cps void step(void) {\n'
           '        cpc_yield();\n'
           '        int x = "text";\n'               # line 10
           '        add(n + x);\n'
           '    }\n'
           '    step();\n'
           '}\n')
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 't.cpc')
        with open(path, 'w') as f:
            f.write(src)
        r = subprocess.run([os.path.join(TOP, 'bin', 'cpcc'), '-Wall', '-c', path,
                            '-o', os.path.join(tmp, 't.o')], capture_output=True, text=True)
    assert re.search(r't\.cpc:5:13: warning: unused variable', r.stderr), r.stderr
    assert re.search(r't\.cpc:10:17: warning: initialization of .int. from .char \*.', r.stderr), \
        r.stderr


def test_more_live_addresses_than_thunks_is_a_clear_runtime_error():
    # each of the recursive invocations keeps its own comparator's address
    src = ('#include <stdio.h>\n'
           'static int depth(int n) {\n'
           '    int get(void) { return n; }\n'
           '    int (*p)(void) = get;\n'
           '    int below = n > 0 ? depth(n - 1) : 0;\n'
           '    return below + p();\n'
           '}\n'
           'int main(int argc, char **argv) { (void)argv; printf("%d\\n", depth(argc * DEPTH)); return 0; }\n')
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 't.cpc')
        with open(path, 'w') as f:
            f.write(src)
        runs = {}
        for depth in (7, 8):               # 8 and 9 invocations at once
            exe = os.path.join(tmp, 't%d' % depth)
            subprocess.run([os.path.join(TOP, 'bin', 'cpcc'), '-DDEPTH=%d' % depth, '-o', exe, path],
                           check=True)
            runs[depth] = subprocess.run([exe], capture_output=True, text=True)
    assert runs[7].returncode == 0 and runs[7].stdout == '28\n'
    assert runs[8].returncode != 0
    assert 'more than 8 invocations hold the address of nested function `get`' in runs[8].stderr


def test_function_pointer_declarator_is_reported_not_lifted():
    errs = errors('int f(void) {\n int (*getter(void))(void) { return 0; }\n return 0; }\n')
    assert errs and errs[0][0] == 3 and 'CPC cannot lift this nested function definition' in errs[0][1]


@pytest.mark.parametrize('seed, cps, extra', [
    (4, False, []), (10, False, []),
    (4, True, []), (5, True, ['--dataflow=environments'])])
def test_random_nested_programs_print_what_gcc_prints(seed, cps, extra):
    """The native program built by cpcc, or its cps variant (every nested
    function cps, cooperation points added, one thread), prints what gcc's
    build of the native program prints."""
    import sys
    sys.path.insert(0, os.path.join(TOP, 'tests', 'translator'))
    import nested_gen
    with tempfile.TemporaryDirectory() as tmp:
        assert nested_gen.check(seed, tmp, '-O2', cps, extra) is None


def test_lifting_order_does_not_depend_on_the_process():
    # Several functions lifted to the same place: their order must be the
    # same in every run (reproducible builds), whatever Python's string
    # hashing, which differs between processes.
    path = os.path.join(TOP, 'tests', 'translator', 'programs', 'nested_native_shapes.cpc')
    outs = set()
    for seed in ('1', '2', '3', '4'):
        r = subprocess.run([os.path.join(TOP, 'bin', 'cpcc'), '--cpc-stop-after=nested', path],
                           capture_output=True, text=True,
                           env=dict(os.environ, PYTHONHASHSEED=seed))
        assert r.returncode == 0, r.stderr
        outs.add(r.stdout)
    assert len(outs) == 1
