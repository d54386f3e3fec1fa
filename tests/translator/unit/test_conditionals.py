"""conditionals: the front-end parses the branches of #if that the C compiler takes."""
import shutil

import pytest

from cpc import conditionals
from cpc import frontend as fe
from cpc import rewrite

CC = [shutil.which('gcc') or 'gcc']

DISAGREE = (b'int v(void) {\n'
            b'#if __GNUC__ >= 5\n'
            b'  return 5;\n'
            b'#elif defined(__clang__)\n'
            b'  return 4;\n'
            b'#else\n'
            b'  return 0;\n'
            b'#endif\n'
            b'}\n')


def test_chains_group_elif_and_else_with_their_if_and_skip_comments():
    text = (b'/*\n#if X\n*/\n#if A\n# ifdef B\n#endif\n#elif C\n#else\n#endif\n'
            b'const char *s = "\\\n#if";\n')
    cs = conditionals.chains(text)
    assert [[g.kind for g in c] for c in cs] == [[b'ifdef'], [b'if', b'elif', b'else']]
    assert text[cs[1][0].body:].startswith(b'# ifdef B')


def test_a_chain_both_take_alike_is_left_as_written():
    text = b'#define A 1\n#if A\nint a;\n#else\nint b;\n#endif\n'
    u = fe.parse(text, 'same.c')
    assert conditionals.pin(u, CC) == []


def test_a_chain_taken_otherwise_gets_the_c_compilers_branch_as_constants():
    u = fe.parse(DISAGREE, 'gnuc.c')
    text = rewrite.apply(u.text, conditionals.pin(u, CC))
    assert b'#if 1 /* taken by the C compiler */\n' in text
    assert b'#elif 0 /* skipped by the C compiler */\n' in text
    assert b'#else /* skipped by the C compiler */\n' in text
    assert text.count(b'\n') == DISAGREE.count(b'\n')
    assert conditionals.check(fe.parse(text, 'gnuc.c'), CC) == []


def test_a_directive_over_several_lines_keeps_its_line_count():
    text = b'#if defined(__clang__) \\\n  || 0\nint a;\n#endif\nint b;\n'
    out = rewrite.apply(text, conditionals.pin(fe.parse(text, 'multi.c'), CC))
    assert out.startswith(b'#if 0 /* skipped by the C compiler */\\\n')
    assert out.count(b'\n') == text.count(b'\n')


def test_the_check_names_the_directive_taken_otherwise():
    errs = conditionals.check(fe.parse(DISAGREE, 'gnuc.c'), CC)
    assert [(e.line, 'different branches' in e.msg) for e in errs] == [(2, True)]


@pytest.mark.parametrize('cc', [None, ['/nonexistent/cc'], CC + ['-include', '/nonexistent/h.h']])
def test_without_a_c_compiler_that_preprocesses_the_file_nothing_changes(cc):
    assert conditionals.pin(fe.parse(DISAGREE, 'gnuc.c'), cc) == []


def test_a_test_of_the_front_ends_own_macro_is_not_a_difference():
    text = b'#ifndef __CPC_FRONTEND__\nint for_the_c_compiler;\n#endif\n'
    assert conditionals.pin(fe.parse(text, 'mode.c'), CC) == []


def test_a_group_that_opens_with_a_false_nested_if_is_taken():
    text = (b'#if 1\n#if 0\nint a;\n#else\nint b;\n#endif\n#else\n#if 1\nint c;\n#endif\n#endif\n'
            b'#if 0\n#else\nint d;\n#endif\n')
    assert conditionals.pin(fe.parse(text, 'nest.c'), CC) == []


def test_the_c_compiler_preprocesses_the_file_up_to_its_last_endif_only(monkeypatch):
    # what follows the last chain cannot change the groups taken (the
    # headers included after it are most of the C compiler's work)
    given = []
    run = conditionals.subprocess.run

    def spy(cmd, input=None, **kw):
        given.append(input)
        return run(cmd, input=input, **kw)
    monkeypatch.setattr(conditionals.subprocess, 'run', spy)
    text = DISAGREE + b'#include <stdio.h>\nint after_the_last_endif;\n'
    u = fe.parse(text, 'gnuc.c')
    out = rewrite.apply(u.text, conditionals.pin(u, CC))
    assert b'#if 1 /* taken by the C compiler */\n' in out
    assert len(given) == 1
    assert b'#endif' in given[0] and b'stdio' not in given[0] and b'after_the' not in given[0]
