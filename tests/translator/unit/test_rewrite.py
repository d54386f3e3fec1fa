"""rewrite: applying text edits."""
import pytest

from cpc import rewrite as rw


def test_apply_puts_an_insertion_before_a_replacement_that_starts_at_it():
    text = b'{char b[9]; f(b);}'
    edits = [(1, 11, 'struct e *cpc_env;'), (1, 1, 'ALLOC; ')]
    assert rw.apply(text, edits) == b'{ALLOC; struct e *cpc_env; f(b);}'


def test_apply_keeps_insertions_at_one_place_in_the_order_they_were_made():
    assert rw.apply(b'ab', [(1, 1, 'x'), (1, 1, 'y'), (0, 1, 'A')]) == b'Axyb'


def test_apply_rejects_overlapping_replacements():
    with pytest.raises(ValueError, match='overlapping edits at 2'):
        rw.apply(b'abcdef', [(1, 4, 'x'), (2, 5, 'y')])


class _Text:
    """What declarator_end and directives_in read of a unit: its text."""
    def __init__(self, text):
        self.text = text


@pytest.mark.parametrize('text, b, end', [
    (b'int f(int x);', 12, 12),                 # the extent already ends the declarator
    (b'int f P((int x));', 6, 16),              # past the macro and its arguments
    (b'int f P((int x)), g P((int));', 6, 16),  # up to the comma
    (b'int f NOARGS;', 6, 12),                  # a macro without arguments
    (b'int f P((int x)) = 1;', 6, 6),           # not a declarator's end: Clang's
    (b'int f P((int x)', 6, 6),                 # no end in sight: Clang's
])
def test_declarator_end_skips_a_parameter_list_out_of_a_macro(text, b, end):
    assert rw.declarator_end(_Text(text), b) == end


def test_directives_in_keeps_conditionals_and_definitions_only():
    text = (b'int\n#if A\nf(int x)\n#else\n#include "x.h"\nf(x)\n#endif\n'
            b'{\n#define N 1\n#pragma once\n#undef N\n}')
    assert rw.directives_in(_Text(text), 0, len(text)) == \
        '#if A\n#else\n#endif\n#define N 1\n#undef N\n'


def test_after_stdc_pragmas_skips_the_pragmas_that_open_a_block():
    text = b'{\n#pragma STDC FP_CONTRACT OFF\n  /* c */ #pragma STDC FENV_ACCESS ON\n  x = 1; }'
    assert text[rw.after_stdc_pragmas(_Text(text), 1):].startswith(b'\n  x = 1;')
    other = b'{\n#pragma GCC unroll 4\n  x = 1; }'
    assert rw.after_stdc_pragmas(_Text(other), 1) == 1


def test_group_end_is_after_the_bracket_that_closes_the_one_at_the_offset():
    text = b'f(a, (b), c[1]) + x[y[2]][3] {'
    assert rw.group_end(text, 1) == text.index(b' +')
    assert rw.group_end(text, text.index(b'[y')) == text.index(b'[3]')
    assert rw.group_end(text, 0) is None                   # `f` opens nothing
    assert rw.group_end(text, len(text) - 1) is None       # a `{` never closed


DIRECTIVES = (b'int a;\n#line 100 "x.c"\nint b; /* # not one */\n# 7 "y.c" 1\nint c;\n'
              b'#line \\\n  300 \\\n  "z.c"\nint d; const char *s = "a\\\\b\\n";\n'
              b'%:line 500\nint e;\n  /* c */ #line 600\nint f;\n#if 0\n#line 900\n#endif\n'
              b'int g;\n#define M(x) \\\n  x + \\\n  1\nint h = M(2);\n' +
              b''.join(b'int v%d;\n' % i for i in range(200)))


def test_presumed_lines_are_libclangs_at_every_offset():
    # (counted from the start of a run of lines without directives; asked
    # of libclang on a line that may hold or continue one)
    import clang.cindex as ci
    from cpc import frontend as fe
    from cpc.libclang import presumed
    u = fe.parse(DIRECTIVES, 't.c')
    main = u.tu.get_file(u.path)
    for off in range(len(DIRECTIVES) + 1):
        f, line, _ = presumed(ci.SourceLocation.from_offset(u.tu, main, off))
        assert rw.presumed_line(u, off) == (f or u.path, line), (off, DIRECTIVES[:off])


def test_presumed_lines_ask_libclang_once_per_run_of_lines(monkeypatch):
    from cpc import frontend as fe
    u = fe.parse(DIRECTIVES, 't.c')
    asked = []
    presumed = rw.presumed

    def counted(loc):
        asked.append(loc)
        return presumed(loc)
    monkeypatch.setattr(rw, 'presumed', counted)
    starts = [i + 1 for i, c in enumerate(DIRECTIVES) if c == ord('\n')]
    lines = [rw.presumed_line(u, a)[1] for a in starts[-150:]]
    assert lines == list(range(lines[0], lines[0] + 150))
    assert len(asked) <= 2
