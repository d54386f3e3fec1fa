"""emit: splitting, lifting and the C of docs/abi.md (on the whole pipeline,
every invariant checked).
Its exact results on characteristic cases: expected/emit/ (test_pass_outputs.py)."""
import os
import re
import subprocess
import sys

import pytest

from cpc.analysis.cfg import Cfg
from cpc.analysis.func import func
from cpc import frontend as fe
from cpc import pipeline
from helpers import HDR, before, emit

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
CPCC = os.path.join(TOP, 'bin', 'cpcc')


def frame_fields(out, fn):
    """The member names of cps function fn's frame struct."""
    m = re.search(r'struct %s__frame \{([^}]*)\}' % fn, out)
    return re.findall(r'(\w+);', m.group(1))


def restored(out, fn, n):
    """The variables restored at resume point n of fn (from its label to
    the end of the call site's block)."""
    m = re.search(r'%s__resumed_%d:((?:[^{}]|\{[^{}]*\})*)\}' % (fn, n), out)
    return re.findall(r'(\w+) = cpc_f->\1;', m.group(1))


def stored(out, fn, comment):
    """The variables a call site (found by its comment) stores."""
    i = out.index('/* %s */' % comment)
    block = out[i:out.index('return', i)]
    return re.findall(r'cpc_f->(\w+) = \1;', block)


def test_liveness_lifts_only_live_variables():
    out = emit('#include <stdio.h>\ncps void f(int n) { int dead = n; int used = 2; '
              'cpc_yield(); printf("%d", used); }\n')
    assert frame_fields(out, 'f') == ['used', 'cpc_fn']
    assert restored(out, 'f', 1) == ['used']


def test_data_flow_sets_hold_only_the_variables_in_scope_at_a_cps_call():
    # (the locals of blocks without calls would make a set per node grow with
    # the function's length)
    u, _ = before('emit', 'cps int g(int x);\ncps int f(int n) { int a = g(n); '
                  '{ int b = a; a += b; } for (int i = 0; i < 3; i++) { int c = i; a += c; } '
                  '{ int d = g(a); return d + a; } }\n')
    f = func(u, u.function_defs()[-1])
    cfg = Cfg(f)
    assert sorted(f.vars[k].name for k in cfg.bits.keys) == ['a', 'd', 'n']
    assert cfg.bits.mask(f.vars) == 0b111


def test_native_cps_call_is_an_error():
    with pytest.raises(fe.Diags) as e:
        emit('cps void g(void);\nint main(void) { g(); return 0; }\n')
    assert 'called from native function `main`' in e.value.diags[0].msg


def test_generated_code_is_not_padded_or_pushed_right():
    out = emit('cps int g(int);\ncps int f(int n) {\n    while (n > 0) {\n'
              '        n = g(n);\n    }\n    return n;\n}\n')
    # no line of blanks followed by code far to the right, no padded brace
    assert not re.search(r'^ {20,}\S', out, re.M)
    # the body's head, dispatch and frame push are one line, on the
    # function's line (3); the user's code goes on at line 4
    assert re.search(r'#line 3 "t\.cpc"\nstatic inline CPC_CPS_FN cpc_continuation \*f\(.*\) '
                     r'\{ struct f__frame \*cpc_f; switch \(cpc_resume\) \{ '
                     r'case 1: goto f__resumed_1; \} '
                     r'\{ /\* the frame of this invocation \*/ '
                     r'cpc_f = CPC_PUSH_RESERVED\(cpc_k, struct f__frame\); '
                     r'cpc_f->cpc_fn = f__resume_1; \}\n'
                     r'#line 4 "t\.cpc"\n    while \(', out)
    # a #line directive is never followed at once by another (it would map nothing)
    assert not re.search(r'^#line [^\n]*\n#line ', out, re.M)
    # the call site is one line, indented like the statement it replaces,
    # with no #line of its own (the statement was one line)
    assert re.search(r'\n    while \(n > 0\) \{\n        \{ /\* n = g\(n\) \*/ int cpc_r; '
                     r'[^\n]* f__resumed_1: [^\n]*\}\n    \}\n', out)


def test_line_numbers_survive_generated_code(tmp_path):
    """gcc's messages land on the .cpc lines after call sites, spawns, boxing
    and hoisting (each `#warning` names its own line)."""
    import subprocess
    lines = [
        '#include <cpc/cpc_runtime.h>',
        'cps int g(int);',
        'cps void h(int *);',
        'cps int f(int n) {',
        '    int x = 0; h(&x);',
        '#warning "L6"',
        '    while (n > 0) {',
        '        n = g(n) + g(x);',
        '#warning "L9"',
        '        cpc_spawn h(&x);',
        '#warning "L11"',
        '    }',
        '#warning "L13"',
        '    return n + x;',
        '}',
        '#warning "L16"',
    ]
    src = '\n'.join(lines) + '\n'
    out = pipeline.translate(src.encode(), 't.cpc', check_invariants=True)
    c = tmp_path / 't.c'
    c.write_text(out)
    r = subprocess.run(['cc', '-fsyntax-only', '-I', fe.RUNTIME_INCLUDE, str(c)],
                       capture_output=True, text=True)
    got = re.findall(r't\.cpc:(\d+):\d+: warning: #warning "L(\d+)"', r.stderr)
    assert len(got) == 5 and all(a == b for a, b in got), r.stderr


def presumed_lines(out):
    """The .cpc line of each line of generated C, following #line."""
    cur, res = 1, []
    for line in out.split('\n'):
        m = re.match(r'#line (\d+) ', line)
        if m:
            cur = int(m.group(1))
            res.append(None)
        else:
            res.append(cur)
            cur += 1
    return res


def test_falling_off_the_end_is_on_the_closing_brace_line():
    """gdb steps from the last statement to the function's `}`, not to the
    line after it."""
    for src, brace in (('cps void f(int n) {\n    cpc_yield();\n    n++;\n}\n\nint x;\n', 5),
                       ('cps void f(int n) { cpc_yield(); n++; }\n\nint x;\n', 2)):
        out = emit(src)
        lines = out.split('\n')
        where = presumed_lines(out)
        body = next(i for i, l in enumerate(lines) if '*f(cpc_continuation *cpc_k, int' in l
                    and not l.endswith(';'))
        ret = next(i for i in range(body, len(lines)) if 'return cpc_resume_caller(cpc_k);' in lines[i])
        assert where[ret] == brace, '\n'.join(lines[body:ret + 2])


def test_variable_assigned_in_loop_condition_is_not_lifted_before_set():
    """`while ((item = take()) >= 0) { ...; cpc_yield(); }`: item is assigned
    before it is read again, so the yield's frame does not hold it (gcc would
    see it saved uninitialised on the first iteration)."""
    out = emit('cps int take(void);\ncps void f(void) { int item, n = 0;\n'
              '  while ((item = take()) >= 0) { n += item; cpc_yield(); }\n  n++; }\n')
    assert frame_fields(out, 'f') == ['n', 'cpc_fn'], out
    assert restored(out, 'f', 1) == ['n'] and restored(out, 'f', 2) == ['n']


def test_unassigned_parameter_is_stored_once_at_entry():
    out = emit('cps int g(int);\ncps int f(int a, int b) {\n  int s = 0;\n'
              '  while (b > 0) { s += g(a); b--; }\n  return s + a;\n}\n')
    entry = out.split('/* the frame of this invocation */')[1].split('}')[0]
    assert 'cpc_f->a = a;' in entry and 'cpc_f->b' not in entry
    assert sorted(stored(out, 'f', 'int cpc_t1 = g(a);')) == ['b', 's']
    assert sorted(restored(out, 'f', 1)) == ['a', 'b', 's']


def test_parameter_named_in_asm_is_stored_at_each_call():
    out = emit('cps void g(void);\ncps int f(int a) {\n  g();\n'
              '  __asm__("" : "+r"(a));\n  g();\n  return a;\n}\n')
    entry = out.split('/* the frame of this invocation */')[1].split('}')[0]
    assert 'cpc_f->a' not in entry and stored(out, 'f', 'g()') == ['a']


def test_locals_of_a_local_enum_or_typedef_live_in_the_frame_as_what_they_stand_for():
    out = emit('cps int f(void) { enum colour { RED, GREEN = 5 } c = GREEN; '
               'typedef unsigned long word; const word w = 7; cpc_yield(); return c + (int)w; }\n')
    assert frame_fields(out, 'f') == ['c', 'w', 'cpc_fn'], out
    assert re.search(r'struct f__frame \{ unsigned int c; unsigned long w; ', out), out


def test_a_boxed_local_enum_lives_in_the_environment_as_its_integer_type():
    out = emit('cps void g(int *);\ncps int f(void) { enum e { A = -1, B } v = A; '
               'g((int *)&v); return v; }\n', dataflow='environments')
    assert re.search(r'struct f__env \{ int v; \}', out), out


def test_prototyped_entry_keeps_parameter_types():
    out = emit('cps double mix(float f, char c) { return f + c; }\n')
    assert re.search(r'\*mix__cps\(cpc_continuation \*cpc_k, float f, char c\)', out)


def test_the_dead_variables_table_lists_the_users_variables_only():
    # (the temporary holding square(i)'s result is in scope at the call and
    # not saved: the table for gdb names the program's variables, never the
    # translation's cpc_ ones)
    out = emit('cps int square(int v) { cpc_yield(); return v * v; }\n'
               'cps int sum(int n) {\n    int total = 0, unused;\n'
               '    for (int i = 1; i <= n; i++)\n        total += square(i);\n'
               '    unused = 1;\n    return total;\n}\n')
    names = re.search(r'sum__dead_vars\[\] __attribute__\(\(used\)\) = "([^"]*)";', out)
    table = re.search(r'sum__dead\[2\] __attribute__\(\(used\)\) = \{ "", "([^"]*)" \};', out)
    assert names is not None and table is not None, out
    assert (names.group(1), table.group(1)) == ('unused@7', '0'), out


def test_generated_c_does_not_depend_on_the_process():
    # (reproducible builds: Python's string hashing differs between
    # processes, and so does the order of a set of variables)
    src = ('#include <cpc/cpc_runtime.h>\ncps int g(int);\n'
           'cps int f(int a) { int b = g(a), c = a + 1, d = c * 2, e = d - b; '
           'cpc_yield(); return a + b; }\n')
    for dataflow in ('lifting', 'environments'):
        outs = set()
        for seed in ('1', '2', '3', '4', '5', '6'):
            r = subprocess.run([sys.executable, '-c', 'import sys; from cpc import pipeline; '
                                'sys.stdout.write(pipeline.translate(sys.stdin.read().encode(), '
                                '"t.cpc", dataflow=%r))' % dataflow],
                               input=src, capture_output=True, text=True,
                               env=dict(os.environ, PYTHONHASHSEED=seed,
                                        PYTHONPATH=os.path.join(TOP, 'translator')))
            assert r.returncode == 0, r.stderr
            outs.add(r.stdout)
        assert len(outs) == 1, dataflow


def test_a_dead_variable_set_on_many_lines_is_written_once():
    # sq is dead across each of the 40 calls (each sets it) and set on 40
    # lines: written at each resume point, the table would grow as their
    # product; it is one item of f__dead_vars, and each entry after the
    # first says that the set is the one before (emit/dead_table.py)
    calls = ''.join('    sq = square(n + %d);\n    total += sq;\n' % i for i in range(40))
    out = emit('cps int square(int v) { cpc_yield(); return v * v; }\n'
               'cps int f(int n) {\n    int sq, total = 0;\n' + calls +
               '    return total + n;\n}\n')
    entry = 'sq@' + ','.join(str(5 + 2 * i) for i in range(40))
    assert out.count(entry) == 1, out
    assert 'static const char f__dead_vars[] __attribute__((used)) = "%s";' % entry in out, out
    table = re.search(r'f__dead\[41\] __attribute__\(\(used\)\) = \{ "", ([^}]*) \};', out)
    assert table.group(1).split(', ') == ['"0"'] + ['"="'] * 39, out


def test_a_body_with_many_resume_points_has_one_unoptimised_dispatch_function():
    # (docs/abi.md: gcc's cost per function, times thousands of resume
    # functions; a body with few resume points keeps one optimised
    # resume function each)
    def stubs(n):
        calls = ''.join('    total += square(n + %d);\n' % i for i in range(n))
        out = emit('cps int square(int v) { cpc_yield(); return v * v; }\n'
                   'cps int f(int n) {\n    int total = 0;\n' + calls + '    return total;\n}\n')
        return re.findall(r'static (\w+(?: \w+)*) cpc_continuation \*(f__resume_\d+|f__dispatch)\(',
                          out)
    # (CPC_UNGUARDED: f holds no stack object, test_guard.py)
    assert stubs(40) == [('CPC_UNGUARDED CPC_RESUME_STUB', 'f__dispatch')]
    assert stubs(8) == [('CPC_UNGUARDED CPC_RESUME_FN CPC_CPS_FN', 'f__resume_%d' % i)
                        for i in range(1, 9)]


def head_of(out, fn):
    """The line defining generated function fn (`f__cps(`, the body `f(`)."""
    return [ln for ln in out.split('\n') if '*' + fn in ln and '{' in ln][0]


@pytest.mark.parametrize('attr', ['noinline', 'noipa', 'noclone', 'no_icf', 'always_inline',
                                  'externally_visible', 'no_reorder'])
def test_attributes_about_calls_of_the_function_go_on_its_entry(attr):
    # (calls of f are calls of f__cps: `noinline` keeps them calls, as the
    # user's calls of a native function stay calls)
    out = emit('__attribute__((%s)) cps int f(int x) { cpc_yield(); return x; }\n'
               'cps int g(int x) { return f(x) + 1; }\n' % attr)
    assert attr in head_of(out, 'f__cps('), out
    for fn in ('f(', 'f__resume_1(', 'f__bounce('):
        assert attr not in head_of(out, fn), head_of(out, fn)


def test_inline_specifier_of_a_static_cps_function_goes_on_its_entry():
    out = emit('static inline cps int f(int x) { return x + 1; }\n'
               'cps int g(int x) { return f(x) + 1; }\n')
    assert re.search(r'static inline CPC_CPS_FN cpc_continuation \*f__cps\(', out), out


def test_flatten_goes_on_the_function_holding_the_users_code():
    # (the body, with or without resume points; on the entry it would
    # inline the whole body there, on a resume function once per resume point)
    out = emit('__attribute__((flatten)) cps int f(int x) { cpc_yield(); return x; }\n'
               '__attribute__((flatten)) cps int h(int x) { return x + 1; }\n')
    assert 'flatten' in head_of(out, 'f(')
    for fn in ('f__cps(', 'f__resume_1(', 'f__bounce('):
        assert 'flatten' not in head_of(out, fn), head_of(out, fn)
    assert 'flatten' in head_of(out, 'h(')
    assert 'flatten' not in head_of(out, 'h__cps(')


def test_cold_and_hot_go_on_every_function_made_of_the_code_but_the_deferred_path():
    # (the deferred path, defer and bounce, is cold whatever the function:
    # hot there would conflict with CPC_COLD; a double keeps f__defer, which
    # the runtime's shared path would otherwise stand for)
    for attr in ('cold', 'hot'):
        out = emit('__attribute__((%s)) cps int f(int x, double y) { cpc_yield(); return x; }\n'
                   % attr)
        for fn in ('f__cps(', 'f(', 'f__resume_1('):
            assert attr in head_of(out, fn), head_of(out, fn)
        for fn in ('f__bounce(', 'f__defer('):
            assert 'hot' not in head_of(out, fn) and 'CPC_COLD' in head_of(out, fn)


def test_the_bounce_calls_the_entry_not_the_body():
    # (gcc would otherwise inline a second copy of the body into the cold
    # bounce; the entry finds its budget renewed by the trampoline)
    out = emit('cps int f(int x, int y) { cpc_yield(); return x + y; }\n'
               'cps int h(int x) { return x + 1; }\n')
    assert re.search(r'f__bounce\(cpc_continuation \*cpc_k\)\s*\{[^}]*'
                     r'return f__cps\(cpc_k, cpc_a->x, cpc_a->y\);\s*\}', out), out
    assert re.search(r'h__bounce\(cpc_continuation \*cpc_k\)\s*\{[^}]*'
                     r'return h__cps\(cpc_k, cpc_a->x\);\s*\}', out), out


def compile_o2(tmp_path, src, *flags):
    """objdump -d of `cpcc -O2 -c FLAGS` on src, as {function: its instructions}."""
    (tmp_path / 'p.cpc').write_text(HDR + src)
    r = subprocess.run([CPCC, '-O2', *flags, '-c', '-o', 'p.o', 'p.cpc'], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn', str(tmp_path / 'p.o')],
                         capture_output=True, text=True, check=True).stdout
    return {m.group(1): m.group(2) for m in
            re.finditer(r'^[0-9a-f]+ <([\w.]+)>:\n((?:.+\n)*)', dis, re.M)}


def test_a_small_body_runs_in_its_resume_function_without_a_call_at_O2(tmp_path):
    # (the body is `inline`: without it the direct return's code at each
    # exit tips a body like this one over gcc's limit, and every resume,
    # every switch of a yield loop, calls it and saves its registers)
    fns = compile_o2(tmp_path, '#include <time.h>\nstatic double t0, t1;\n'
                     'static double now(void) { struct timespec ts; '
                     'clock_gettime(CLOCK_MONOTONIC, &ts); return ts.tv_sec * 1e9 + ts.tv_nsec; }\n'
                     'cps void yielder(int id, long n) {\n'
                     '    for (long i = 0; i < n; i++) {\n'
                     '        if (i == 5 && id == 0) t0 = now();\n'
                     '        cpc_yield();\n'
                     '    }\n'
                     '    if (id == 1) t1 = now();\n'
                     '}\n')
    assert 'yielder.resume.1' in fns, sorted(fns)
    assert 'yielder.body' not in fns['yielder.resume.1'], fns['yielder.resume.1']


def test_a_noinline_cps_function_is_still_called_at_O2(tmp_path):
    fns = compile_o2(tmp_path, '__attribute__((noinline)) cps int cf(int x) { return x + 1; }\n'
                     'cps int loop(int n) { int x = 0; for (int i = 0; i < n; i++) '
                     'x = cf(x); return x; }\n')
    callers = [n for n, code in fns.items() if re.search(r'\b(call|jmp)\s+\S+ <cf__cps>', code)]
    assert callers, fns.keys()


def test_an_always_inline_cps_function_is_not_called_at_O2(tmp_path):
    fns = compile_o2(tmp_path, 'static inline __attribute__((always_inline)) cps int cf(int x) '
                     '{ return x + 1; }\n'
                     'cps int loop(int n) { int x = 0; for (int i = 0; i < n; i++) '
                     'x = cf(x); return x; }\n')
    assert not [n for n, code in fns.items() if re.search(r'<cf__cps>', code)], fns.keys()


DEPRECATED = '''#include <cpc/cpc_runtime.h>
cps int old(int x) __attribute__((deprecated("use new")));
cps int old(int x) { return x + 1; }
cps void run(void)
{
    cps int (*p)(int) = old;
    int y = old(1);
    cpc_spawn old(2);
    y += p(3);
}
int main(void) { cps int (*q)(int) = old; (void)q; cpc_spawn run(); cpc_main_loop(); return 0; }
'''


def test_each_use_of_a_deprecated_cps_function_is_warned_at_its_line_naming_it(tmp_path):
    # (as gcc warns about a native one: at lines 6, 7, 8 and 11, never in
    # the generated code around them)
    (tmp_path / 'p.cpc').write_text(DEPRECATED)
    r = subprocess.run([CPCC, '-O2', '-c', '-o', 'p.o', 'p.cpc'], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    warned = re.findall(r'^p\.cpc:(\d+):\d+: warning: (.*)$', r.stderr, re.M)
    assert warned == [(str(n), "‘old’ is deprecated: use new [-Wdeprecated-declarations]")
                      for n in (6, 7, 8, 11)], r.stderr
    assert re.search(r"^p\.cpc:[23]:\d+: note: declared here", r.stderr, re.M), r.stderr


def test_a_deprecated_cps_function_is_an_error_with_werror_and_silent_without_the_warning(
        tmp_path):
    (tmp_path / 'p.cpc').write_text(DEPRECATED)
    r = subprocess.run([CPCC, '-Werror', '-c', '-o', 'p.o', 'p.cpc'], cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode != 0 and "p.cpc:7:" in r.stderr and 'deprecated' in r.stderr, r.stderr
    r = subprocess.run([CPCC, '-Wall', '-Wextra', '-Werror', '-Wno-deprecated-declarations',
                        '-o', 'p', 'p.cpc'], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr == '', r.stderr


def test_an_optimised_return_jumps_to_the_callers_resume_function(tmp_path):
    # (not back through the trampoline: runtime/include/cpc/cpc_runtime.h,
    # cpc_resume_caller; its one indirect call for every frame predicts
    # badly); with -DCPC_NO_DIRECT_RETURN, back to it
    src = ('__attribute__((noinline)) cps int cf(int x) { return x + 1; }\n'
           '__attribute__((noinline)) cps void vf(int *p) { *p = 1; }\n')
    direct = compile_o2(tmp_path, src)
    trampoline = compile_o2(tmp_path, src, '-DCPC_NO_DIRECT_RETURN')
    for fn in ('cf__cps', 'vf__cps'):
        assert re.search(r'\bjmp\s+\*', direct[fn]), direct[fn]
        assert not re.search(r'\bjmp\s+\*', trampoline[fn]), trampoline[fn]



def test_each_function_restores_its_own_variables_of_a_shared_name():
    # (Functions.restores writes each restore once per function: f's `x`,
    # a struct with a const member, is copied with memcpy, g's `x`, an int,
    # assigned)
    out = emit('struct s { const int a; int b; };\n'
               'cps int square(int v) { cpc_yield(); return v * v; }\n'
               'cps int f(struct s x) { int r = square(x.b); r += square(x.a); return r + x.b; }\n'
               'cps int g(int x) { int r = square(x); r += square(r); return r + x; }\n')
    f_part = out[out.index('f__resumed_1:'):out.index('f__resumed_2:')]
    g_part = out[out.index('g__resumed_1:'):out.index('g__resumed_2:')]
    assert '__builtin_memcpy((void *)&(x), (const void *)&(cpc_f->x), sizeof (x));' in f_part, out
    assert re.search(r'\bx = cpc_f->x;', g_part), out
    assert 'memcpy' not in g_part, out
