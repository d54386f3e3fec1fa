"""cps_free: a unit without cps code skips the passes after `headers`, and
translates (or fails) exactly as the whole pipeline makes it."""
import shutil

import pytest

from cpc import cps_free
from cpc import frontend as fe
from cpc import pipeline
from helpers import HDR

CC = [shutil.which('gcc') or 'gcc', '-I' + fe.RUNTIME_INCLUDE]


def translate(src, tmp_path, header='', **kw):
    """(C text or the diagnostics' messages, timings) of HDR + src as
    t.cpc, beside h.h holding `header`."""
    (tmp_path / 'h.h').write_text(header)
    times = {}
    try:
        out = pipeline.translate((HDR + src).encode(), str(tmp_path / 't.cpc'),
                                 timings=times, **kw)
    except fe.Diags as e:
        out = [d.msg for d in e.diags]
    return out, times


def skipped(times):
    return 'emit' not in times


def whole_pipeline(src, tmp_path, monkeypatch, header='', **kw):
    with monkeypatch.context() as m:
        m.setattr(cps_free, 'has_cps_code', lambda u: True)
        return translate(src, tmp_path, header, **kw)[0]


PLAIN = ('#include <stdio.h>\n#include "h.h"\nstatic int twice(int x) { return 2 * x; }\n'
         'int main(void) {\n#if defined(__clang__)\n  return 1;\n#else\n'
         '  printf("%d\\n", twice(HALF));\n#endif\n  return 0;\n}\n')


def test_a_c_file_is_written_as_the_whole_pipeline_writes_it_without_the_later_passes(
        tmp_path, monkeypatch):
    out, times = translate(PLAIN, tmp_path, '#define HALF 21\n', cc=CC)
    assert skipped(times), times
    assert out == whole_pipeline(PLAIN, tmp_path, monkeypatch, '#define HALF 21\n', cc=CC)
    # (the branches gcc takes: `conditionals` ran before the decision)
    assert '#if 0 /* skipped by the C compiler */' in out, out


def test_cps_code_in_a_branch_only_gcc_takes_is_translated(tmp_path, monkeypatch):
    # (Clang's first parse skips it: the decision follows `conditionals`)
    src = ('#if __GNUC__ >= 5\ncps int f(void) { cpc_yield(); return 1; }\n#endif\n'
           'int main(void) { return 0; }\n')
    out, times = translate(src, tmp_path, cc=CC)
    assert not skipped(times), times
    assert 'f__cps' in out, out
    assert out == whole_pipeline(src, tmp_path, monkeypatch, cc=CC)


# Each program holds something a pass after `headers` acts on (h.h, the
# header beside it, may hide it behind a macro or a typedef): it is not
# skipped, and its translation or its diagnostics are the whole pipeline's.
CPS_CODE = {
    'cps_definition': ('', 'cps int f(void) { return 1; }\nint main(void) { return 0; }\n'),
    'keyword_in_a_native_function': (
        '', 'cps void g(void);\nint main(void) { cpc_spawn g(); cpc_main_loop(); return 0; }\n'),
    'misplaced_cps_on_a_local': ('', 'int main(void) { cps int x = 0; return x; }\n'),
    'cps_call_through_a_header_macro': (
        '#define PAUSE() cpc_yield()\n', '#include "h.h"\nint main(void) { PAUSE(); return 0; }\n'),
    'cps_function_pointer_field_of_a_header_struct': (
        'typedef cps void job(void);\nstruct ops { int n; job *run; };\n',
        '#include "h.h"\nvoid go(struct ops *o) { o->run(); }\n'),
    'native_function_taking_a_cps_pointer': (
        'typedef cps void job(void);\nvoid start(job *j);\n',
        '#include "h.h"\nstatic void native(void) {}\nint main(void) { start(native); return 0; }\n'),
    'header_declaration_of_cps_redeclared_native': (
        'cps void h(void);\n', '#include "h.h"\nvoid h(void);\nint main(void) { return 0; }\n'),
    'function_taking_the_continuation': (
        '', 'int main(void) { return cpc_get_sched() == 0; }\n'),
    'name_spelt_like_a_generated_one': (
        'cps void task(void);\n', '#include "h.h"\nstatic int task__cps;\n'
        'int main(void) { return task__cps; }\n'),
    'header_defining_a_cps_function': (
        'static cps void helper(void) { cpc_yield(); }\n',
        '#include "h.h"\nint main(void) { return 0; }\n'),
    'attribute_defined_as_a_macro': (
        '', '#define __attribute__(x)\nint main(void) { return 0; }\n'),
    'cps_call_pasted_by_a_header_macro': (
        '#define CALL(x) cpc_ ## x()\n', '#include "h.h"\nint main(void) { CALL(yield); return 0; }\n'),
    'no_retain_pragma': ('', 'int main(void) { int x = 0;\n#pragma cpc_no_retain(x)\n'
                             'return x; }\n'),
}


@pytest.mark.parametrize('name', sorted(CPS_CODE))
def test_a_unit_with_cps_code_runs_every_pass(name, tmp_path, monkeypatch):
    header, src = CPS_CODE[name]
    out, times = translate(src, tmp_path, header)
    assert not skipped(times) or isinstance(out, list), (out, times)
    assert out == whole_pipeline(src, tmp_path, monkeypatch, header)


def test_stop_after_a_later_pass_prints_the_text_of_a_unit_without_cps_code(tmp_path):
    out, _ = translate(PLAIN, tmp_path, '#define HALF 21\n', stop_after='normalize')
    assert out == HDR + PLAIN


# --------------------------------------------------------------------------
# Functions without cps code in a unit that has some

ANCHOR = '\ncps int anchor(void) { cpc_yield(); return 0; }\n'


def every_function_walked(src, tmp_path, monkeypatch, header='', **kw):
    with monkeypatch.context() as m:
        m.setattr(cps_free._Acting, 'may_hold', lambda self, c: True)
        return translate(src, tmp_path, header, **kw)[0]


@pytest.mark.parametrize('name', sorted(CPS_CODE))
def test_a_function_with_cps_code_beside_a_cps_function_is_translated_as_before(
        name, tmp_path, monkeypatch):
    # (the same programs, in a file whose other function is cps: each
    # function is then decided on its own)
    header, src = CPS_CODE[name]
    out, times = translate(src + ANCHOR, tmp_path, header)
    assert out == every_function_walked(src + ANCHOR, tmp_path, monkeypatch, header)


MIXED = ('#include <stdio.h>\n#define TWICE(x) (2 * (x))\n'
         'static int plain_helper(int x) { int a[4] = {x}; return TWICE(a[0]) + 1; }\n'
         'static cps int step(int x) { cpc_yield(); return x + 1; }\n'
         'static int spawner(void) { cpc_spawn step(1); return 0; }\n'
         'static int calls_through_a_macro(void) { return PAUSE(); }\n'
         'cps int run(void) { int r = step(plain_helper(1)); return r; }\n'
         'int main(void) { printf("%d\\n", plain_helper(2)); spawner(); '
         'cpc_main_loop(); return 0; }\n')
MIXED_HEADER = '#define PAUSE() (step(0), 0)\n'


def listed_functions(src, tmp_path, monkeypatch, header):
    """The names of the function definitions whose bodies a pass listed
    (cursors._children) while translating src."""
    from cpc import cursors
    seen, real = set(), cursors._children

    def spy(c):
        if c.kind == fe.K.FUNCTION_DECL:
            seen.add(c.spelling)
        return real(c)
    with monkeypatch.context() as m:
        m.setattr(cursors, '_children', spy)
        out, _ = translate(src, tmp_path, header)
    return out, seen


def test_no_pass_walks_a_function_without_cps_code(tmp_path, monkeypatch):
    src = MIXED.replace('return PAUSE();', 'return 0;')
    out, seen = listed_functions(src, tmp_path, monkeypatch, '')
    assert isinstance(out, str), out
    assert 'plain_helper' not in seen and 'main' not in seen, seen
    assert {'step', 'spawner', 'run'} <= seen, seen
    # (copied as written)
    assert 'static int plain_helper(int x) { int a[4] = {x}; return TWICE(a[0]) + 1; }' in out
    assert out == every_function_walked(src, tmp_path, monkeypatch)


def test_which_functions_may_hold_cps_code(tmp_path):
    (tmp_path / 'h.h').write_text(MIXED_HEADER)
    u, _ = pipeline.run_until('attributes', (HDR + '#include "h.h"\n' + MIXED).encode(),
                              str(tmp_path / 't.cpc'))
    assert [c.spelling for c in cps_free.code_defs(u)] == \
        ['step', 'spawner', 'calls_through_a_macro', 'run']


def test_a_native_function_calling_cps_code_through_a_header_macro_is_still_diagnosed(
        tmp_path, monkeypatch):
    out, _ = translate('#include "h.h"\n' + MIXED, tmp_path, MIXED_HEADER)
    assert isinstance(out, list) and any('calls_through_a_macro' in m for m in out), out
    assert out == every_function_walked('#include "h.h"\n' + MIXED, tmp_path, monkeypatch,
                                        MIXED_HEADER)
