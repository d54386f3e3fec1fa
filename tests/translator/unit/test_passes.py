"""One behaviour per test, on small inputs."""
import re

import pytest

from cpc import analysis as an
from cpc import frontend as fe
from cpc import prepare
from cpc import translate

HDR = '#include <cpc/cpc_runtime.h>\n'


def run(src, stop=None):
    return translate.translate((HDR + src).encode(), 't.cpc', stop_after=stop)


def funcs(src):
    u = fe.parse((HDR + src).encode(), 't.cpc')
    return u, {c.spelling: an.Func(u, c) for c in prepare.function_defs(u)}


def squash(s):
    return re.sub(r'\s+', ' ', re.sub(r'#line.*', '', s))


def test_native_file_is_copied_byte_for_byte():
    src = 'int f(int x) {\n  return x + 1; /* c */\n}\n'
    out = run(src)
    assert out.endswith(HDR + src)


def test_cps_detected_through_attribute_spelling():
    u, fs = funcs('__attribute__((cps)) void f(void) { cpc_yield(); }\nvoid g(void) {}\n')
    assert fs['f'].is_cps and not fs['g'].is_cps


def test_cps_call_detected_through_pointer():
    u, fs = funcs('typedef cps int fn(int);\ncps int h(fn *p) { return p(1); }\n')
    assert len(fs['h'].cps_calls) == 1


def test_sizeof_operand_is_not_a_call():
    u, fs = funcs('cps int g(void);\ncps int f(void) { return sizeof(g()); }\n')
    assert fs['f'].cps_calls == []


def test_hoists_sum_of_calls_in_order():
    out = squash(run('cps int g(int);\ncps int f(void) { int x; x = g(1) + g(2); return x; }\n',
                     'normalize'))
    assert 'int cpc_t1 = g(1); int cpc_t2 = g(2); (void)(x = cpc_t1 + cpc_t2);' in out


def test_and_becomes_if_keeping_short_circuit():
    out = squash(run('cps int g(int);\ncps int f(int a) { return a && g(1); }\n', 'normalize'))
    assert 'int cpc_t2; if (a) { int cpc_t1 = g(1); cpc_t2 = !!(cpc_t1); } else cpc_t2 = 0; return cpc_t2;' in out


def test_while_condition_moves_into_body():
    out = squash(run('cps int g(int);\ncps void f(int n) { while ((n = g(n)) > 0) n--; }\n',
                     'normalize'))
    assert 'while (1) { int cpc_t1 = g(n); if (!((n = cpc_t1) > 0)) break; n--; }' in out


def test_do_while_continue_jumps_to_condition():
    out = squash(run('cps int g(int);\ncps void f(int n) { do { if (n) continue; n++; } while (g(n)); }\n',
                     'normalize'))
    assert 'goto cpc_continue_1;' in out and 'cpc_continue_1: ;' in out


def test_declarators_split():
    out = squash(run('cps int g(int);\ncps void f(void) { int a = 1, b = g(a) + 1; }\n',
                     'normalize'))
    assert 'int a = 1; int cpc_t1 = g(a); int b = cpc_t1 + 1;' in out


def test_shadowing_local_renamed():
    out = run('cps void f(int i) { { int i = 2; cpc_yield(); i++; } }\n', 'prepare')
    assert 'int i__2 = 2' in out and 'i__2++' in out


def frame_fields(out, fn):
    """The member names of cps function fn's frame struct."""
    m = re.search(r'struct %s__frame \{([^}]*)\}' % fn, out)
    return re.findall(r'(\w+);', m.group(1))


def restored(out, fn, n):
    """The variables restored at resume point n of fn (from its label to
    the end of the call site's block)."""
    m = re.search(r'%s__resumed_%d:\n(.*?)\n *\}\n' % (fn, n), out, re.S)
    return re.findall(r'(\w+) = cpc_f->\1;', m.group(1))


def stored(out, fn, comment):
    """The variables a call site (found by its comment) stores."""
    i = out.index('/* %s */' % comment)
    block = out[i:out.index('return', i)]
    return re.findall(r'cpc_f->(\w+) = \1;', block)


def test_liveness_lifts_only_live_variables():
    out = run('#include <stdio.h>\ncps void f(int n) { int dead = n; int used = 2; '
              'cpc_yield(); printf("%d", used); }\n')
    assert frame_fields(out, 'f') == ['used', 'cpc_fn']
    assert restored(out, 'f', 1) == ['used']


def test_uninitialised_variable_not_lifted():
    out = run('#include <stdio.h>\ncps void f(void) { int x; cpc_yield(); x = 1; '
              'cpc_yield(); printf("%d", x); }\n')
    assert restored(out, 'f', 1) == [] and restored(out, 'f', 2) == ['x']
    assert 'cpc_f->x' not in out.split('f__resumed_1')[0]


def test_tail_call_pushes_no_frame():
    out = run('cps int g(int);\ncps int f(int n) { return g(n - 1); }\n')
    assert 'return g__cps(cpc_k, n - 1);' in out and 'f__frame' not in out


def test_void_call_at_end_is_tail():
    out = run('cps void g(int);\ncps void f(int n) { if (n) g(n - 1); }\n')
    assert 'return g__cps(cpc_k, n - 1);' in out and 'f__body' not in out


def test_address_taken_across_call_is_boxed():
    out = run('cps void g(int *);\ncps void f(void) { int x = 1; g(&x); }\n', 'boxing')
    assert 'struct f__env' in out and 'g(&cpc_env->x)' in out


def test_address_passed_to_no_retain_not_boxed():
    out = run('#include <string.h>\ncps void f(void) { int x; memset(&x, 0, sizeof x); '
              'cpc_yield(); x++; }\n', 'boxing')
    assert 'f__env' not in out


def test_array_live_across_call_is_boxed():
    out = run('#include <stdio.h>\ncps void f(void) { char b[8] = "hi"; cpc_yield(); puts(b); }\n',
              'boxing')
    assert 'char b[8];' in out and 'puts(cpc_env->b)' in out


def test_optional_arguments_filled():
    out = run('cps void f(cpc_condvar *c) { cpc_wait(c); cpc_sleep(1); }\n')
    assert 'cpc_wait__cps(cpc_k, c, -1, 0)' in out
    assert 'cpc_sleep__cps(cpc_k, 1, 0, NULL)' in out


def test_need_cont_gets_continuation():
    out = run('cps void f(void) { cpc_get_sched(); }\nvoid g(void) { cpc_get_sched(); }\n')
    assert 'cpc_get_sched(cpc_k)' in out and 'cpc_get_sched(NULL)' in out


def test_native_cps_call_is_an_error():
    with pytest.raises(fe.Diags) as e:
        run('cps void g(void);\nint main(void) { g(); return 0; }\n')
    assert 'called from native function `main`' in e.value.diags[0].msg


def test_spawn_of_block_is_outlined_with_free_locals_as_parameters():
    out = squash(run('cps void g(int);\nint main(void) { int x = 1, y = 2; '
                     'cpc_spawn { g(x); g(y); } return 0; }\n', 'prepare'))
    assert 'static cps void main__spawn_1(int x, int y)' in out
    assert 'cpc_spawn main__spawn_1(x, y);' in out


def test_spawn_of_call_with_pure_arguments_is_not_outlined():
    out = squash(run('cps void g(int);\nint main(void) { int x = 1; cpc_spawn g(x + 1); return 0; }\n',
                     'prepare'))
    assert '__spawn_1(' not in out.split('int main')[0]


def test_spawn_of_call_with_cps_argument_runs_it_in_the_thread():
    out = squash(run('cps int h(int);\ncps void g(int);\nint main(void) { int x = 1; '
                     'cpc_spawn g(h(x)); return 0; }\n', 'prepare'))
    assert 'static cps void main__spawn_1(int x) { g(h(x)); }' in out


def test_return_in_spawned_statement_ends_the_thread():
    out = squash(run('int main(void) { int x = 1; cpc_spawn { if (x) return 3; } return 0; }\n',
                     'prepare'))
    assert '{ (void)(3); return; }' in out


def test_linked_statement_links_back_on_return():
    out = squash(run('cps int f(int n) { cpc_detached { if (n) return n + 1; } return 0; }\n',
                     'prepare'))
    assert 'cpc_sched *cpc_prev_1 = cpc_link(cpc_default_threadpool);' in out
    assert 'int cpc_lret_1 = n + 1; cpc_link(cpc_prev_1); return cpc_lret_1;' in out


def test_call_through_cps_pointer_casts_to_the_entry_type():
    out = squash(run('typedef cps int fn(int);\ncps int h(fn *p) { return p(1); }\n'))
    assert 'return ((cpc_continuation *(*)(cpc_continuation *, int))(void (*)(void))(p))(cpc_k, 1);' in out


def test_cps_function_as_value_is_its_entry_point():
    out = squash(run('cps int f(int x) { return x; }\nint (*q)(int);\n'
                     'cps int (*p)(int) = f;\nvoid set(void) { p = &f; }\n'))
    assert 'p = ((int (*)(int))(void (*)(void))f__cps);' in out


def test_mixing_cps_and_native_pointers_is_an_error():
    with pytest.raises(fe.Diags) as e:
        run('cps int f(int x) { return x; }\nint (*q)(int) = f;\n')
    assert 'mixing cps and native function types' in e.value.diags[0].msg


def test_environments_mode_keeps_frames_to_the_environment():
    src = HDR + 'cps int g(int);\ncps int f(int a) { int b = g(a); return a + b; }\n'
    out = translate.translate(src.encode(), 't.cpc', dataflow='environments')
    assert 'struct f__frame { struct f__env *cpc_env; cpc_function *cpc_fn; };' in out


def test_user_need_cont_function_gets_the_continuation_parameter():
    out = squash(run('int w(int x) __attribute__((cpc_need_cont));\n'
                     'int w(int x) { return x + (cpc_get_sched() != 0); }\n'
                     'cps int f(void) { return w(1); }\n'))
    assert 'int w(cpc_continuation *cpc_k, int x) {' in out
    assert 'cpc_get_sched(cpc_k)' in out and 'w(cpc_k, 1)' in out


def test_boxed_array_in_macro_argument_rewritten_where_written():
    src = ('#define CHECK(c) do { if (c) (void)0; } while (0)\n'
           'int memcmp(const void *, const void *, unsigned long);\n'
           'cps void f(void) { char buf[4]; buf[0] = 0; cpc_yield(); CHECK(memcmp(buf, "a", 1) == 0); }\n')
    out = run(src, 'boxing')
    assert 'CHECK(memcmp(cpc_env->buf, "a", 1) == 0)' in out


def test_stringifying_macro_argument_expands_function():
    src = ('#define SHOW(e) ((void)#e, (void)(e))\n'
           'cps void f(void) { int y = 1; int *p = &y; cpc_yield(); SHOW(y + *p); }\n')
    out = run(src, 'boxing')
    assert '"y + *p"' in out and 'SHOW(y' not in out


def test_const_local_restored_is_declared_without_const():
    out = run('cps int g(int);\ncps int f(const int p) { const int c = 5; int r = g(p); return r + c + p; }\n')
    assert 'int c = 5;' in out and 'const int c' not in out
    assert re.search(r'f__body\(cpc_continuation \*cpc_k, int cpc_resume, int p\)', out)


def test_struct_with_const_member_copied_with_memcpy():
    out = run('struct S { const int a; };\ncps int g(int);\n'
              'cps int f(void) { struct S s = { 1 }; int r = g(2); return r + s.a; }\n')
    assert '__builtin_memcpy((void *)&(cpc_f->s), (const void *)&(s), sizeof (cpc_f->s));' in out


def test_header_cps_definition_inlined_in_place_of_include(tmp_path):
    (tmp_path / 'h.h').write_text('#pragma once\nstatic cps void helper(void) { cpc_yield(); }\n')
    src = HDR + '#include "h.h"\n#include "h.h"\ncps void f(void) { helper(); }\n'
    out = translate.translate(src.encode(), str(tmp_path / 't.cpc'))
    assert '#line 1 "%s"' % (tmp_path / 'h.h') in out
    assert 'helper__cps(cpc_continuation *cpc_k)' in out and '#include "h.h"' not in out.replace(
        '/* #include "h.h": inlined above by cpcc */', '')


def test_header_cps_definition_from_command_line_is_an_error(tmp_path):
    (tmp_path / 'h.h').write_text(HDR + 'static cps void helper(void) { cpc_yield(); }\n')
    src = HDR + 'cps void f(void) { helper(); }\n'
    with pytest.raises(fe.Diags) as e:
        translate.translate(src.encode(), str(tmp_path / 't.cpc'),
                            args=['-include', str(tmp_path / 'h.h')])
    msg = e.value.diags[0].format()
    assert 'helper' in msg and 'h.h' in msg and 'command line' in msg


def test_generated_code_is_not_padded_or_pushed_right():
    out = run('cps int g(int);\ncps int f(int n) {\n    while (n > 0) {\n'
              '        n = g(n);\n    }\n    return n;\n}\n')
    # no line of blanks followed by code far to the right, no padded brace
    assert not re.search(r'^ {20,}\S', out, re.M)
    # (every generated line after the first is preceded by a #line
    # directive naming the line it belongs to: here the function's, 3)
    d = r'#line 3 "t\.cpc"\n'
    assert re.search(r'f__body\(.*\)\n' + d + r'\{\n' + d + r'    struct f__frame \*cpc_f;\n' + d +
                     r'    switch \(cpc_resume\) \{\n' + d +
                     r'    case 1: goto f__resumed_1;\n' + d + r'    \}\n' + d +
                     r'    \{   /\* the frame of this invocation \*/\n' + d +
                     r'        cpc_f = CPC_PUSH_RESERVED\(cpc_k, struct f__frame\);\n' + d +
                     r'        cpc_f->cpc_fn = f__resume_1;\n' + d + r'    \}\n' + d +
                     r'#line 4 "t\.cpc"\n    while \(', out)
    # the call site is indented like the statement it replaces
    assert re.search(r'\n        \{   /\* n = g\(n\) \*/\n#line 5 "t\.cpc"\n'
                     r'            int cpc_r;\n', out)


def test_spawn_site_struct_and_outlined_function_names_differ():
    out = run('cps void g(int);\nint main(void) { int x = 1; cpc_spawn { x++; g(x); } return 0; }\n')
    assert 'struct main__spawn_1__start_args {' in out and 'struct main__spawn_1 {' not in out
    assert 'main__spawn_1__cps(' in out


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
    out = translate.translate(src.encode(), 't.cpc')
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
        out = run(src)
        lines = out.split('\n')
        where = presumed_lines(out)
        body = next(i for i, l in enumerate(lines) if 'f__body(cpc_continuation *cpc_k, int' in l
                    and not l.endswith(';'))
        ret = next(i for i in range(body, len(lines)) if 'return cpc_k;' in lines[i])
        assert where[ret] == brace, '\n'.join(lines[body:ret + 2])


def test_array_element_address_kept_across_call_boxes_the_array():
    for expr in ('&a[1]', '&a[1][0]', '&s.v[1]'):
        src = ('struct T { int v[2]; };\ncps int id(int);\n'
               'cps int f(void) { int a[2][1] = {{1}, {2}}; struct T s = {{1, 2}}; '
               'int *p = %s; int r = id(1); return *p + r; }\n' % expr)
        out = run(src, 'boxing')
        name = 's' if 's.' in expr else 'a'
        assert 'cpc_env->%s' % name in out, expr


def test_variable_assigned_in_loop_condition_is_not_lifted_before_set():
    """`while ((item = take()) >= 0) { ...; cpc_yield(); }`: item is assigned
    before it is read again, so the yield's frame does not hold it (gcc would
    see it saved uninitialised on the first iteration)."""
    out = run('cps int take(void);\ncps void f(void) { int item, n = 0;\n'
              '  while ((item = take()) >= 0) { n += item; cpc_yield(); }\n  n++; }\n')
    assert frame_fields(out, 'f') == ['n', 'cpc_fn'], out
    assert restored(out, 'f', 1) == ['n'] and restored(out, 'f', 2) == ['n']


def test_unassigned_parameter_is_stored_once_at_entry():
    out = run('cps int g(int);\ncps int f(int a, int b) {\n  int s = 0;\n'
              '  while (b > 0) { s += g(a); b--; }\n  return s + a;\n}\n')
    entry = out.split('/* the frame of this invocation */')[1].split('}')[0]
    assert 'cpc_f->a = a;' in entry and 'cpc_f->b' not in entry
    assert sorted(stored(out, 'f', 'int cpc_t1 = g(a);')) == ['b', 's']
    assert sorted(restored(out, 'f', 1)) == ['a', 'b', 's']


def test_parameter_named_in_asm_is_stored_at_each_call():
    out = run('cps void g(void);\ncps int f(int a) {\n  g();\n'
              '  __asm__("" : "+r"(a));\n  g();\n  return a;\n}\n')
    entry = out.split('/* the frame of this invocation */')[1].split('}')[0]
    assert 'cpc_f->a' not in entry and stored(out, 'f', 'g()') == ['a']


def test_single_resume_point_sets_its_function_at_entry():
    one = run('cps void f(void) { for (;;) cpc_yield(); }\n')
    assert one.count('cpc_f->cpc_fn = f__resume_1;') == 1
    assert one.index('cpc_f->cpc_fn') < one.index('/* cpc_yield() */')
    two = run('cps void f(void) { for (;;) { cpc_yield(); cpc_yield(); } }\n')
    assert two.count('cpc_f->cpc_fn = f__resume_') == 2
    assert two.index('/* cpc_yield() */') < two.index('cpc_f->cpc_fn')


def test_every_way_out_pops_the_frame():
    out = squash(run('cps int g(int);\ncps int f(int n) { if (n) return g(n) + 1; '
                     'if (n > 5) return g(n); g(n); return 0; }\n'))
    assert 'CPC_DROP(cpc_k, struct f__frame); return cpc_return_reserved' in out
    assert '{ CPC_DROP(cpc_k, struct f__frame); return g__cps(cpc_k, n); }' in out
