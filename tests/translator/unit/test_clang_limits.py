"""clang_limits: Clang's errors on C that the C compiler accepts say that
they are Clang's limits."""

import shutil
from cpc import clang_limits
from cpc import frontend as fe


CC = [shutil.which('gcc') or 'gcc']


# gcc truncates a u'' literal outside the basic plane; Clang refuses it
GCC_ONLY = "unsigned short c = u'\U0001F600';\n".encode()


def clang_error():
    return fe.Diags([fe.Diag('character too large for enclosing character literal type',
                             't.c', 1, 20, from_clang=True)])


def test_the_c_compiler_accepts_what_clang_refuses_here():
    assert clang_limits.accepted_by_cc(GCC_ONLY, 't.c', CC)
    assert not clang_limits.accepted_by_cc(b'int x = ;\n', 't.c', CC)


def test_clangs_errors_on_what_the_c_compiler_accepts_are_marked_as_its_limits():
    e = clang_error()
    clang_limits.explain(e, GCC_ONLY, 't.c', CC)
    assert e.diags[0].msg == clang_limits.PREFIX + \
        'character too large for enclosing character literal type'


def test_errors_on_what_the_c_compiler_refuses_too_are_left_as_they_are():
    e = clang_error()
    clang_limits.explain(e, b'int x = ;\n', 't.c', CC)
    assert not e.diags[0].msg.startswith(clang_limits.PREFIX)


def test_without_a_c_compiler_nothing_is_marked():
    e = clang_error()
    clang_limits.explain(e, GCC_ONLY, 't.c', None)
    assert not e.diags[0].msg.startswith(clang_limits.PREFIX)


def test_the_translators_own_errors_are_never_marked():
    e = fe.Diags([fe.Diag('mixing cps and native function types', 't.c', 1, 1)])
    clang_limits.explain(e, GCC_ONLY, 't.c', CC)
    assert e.diags[0].msg == 'mixing cps and native function types'


def test_a_mark_is_not_given_twice():
    e = clang_error()
    clang_limits.explain(e, GCC_ONLY, 't.c', CC)
    clang_limits.explain(e, GCC_ONLY, 't.c', CC)
    assert e.diags[0].msg.count(clang_limits.PREFIX) == 1


TEXT = b'int main(void) { return 0; }\n'


def diags():
    return fe.Diags([fe.Diag('something Clang refused', 't.c', 1, 1, from_clang=True),
                     fe.Diag('a translator error', 't.c', 2, 1)])


def test_clang_s_errors_on_a_file_the_compiler_accepts_are_marked():
    d = diags()
    clang_limits.explain(d, TEXT, 't.c', ['cc'])
    assert [x.msg for x in d.diags] == [clang_limits.PREFIX + 'something Clang refused',
                                        'a translator error']


def test_nothing_is_marked_when_the_compiler_refuses_the_file_too_or_is_unknown():
    d = diags()
    clang_limits.explain(d, b'int main(void) { return }\n', 't.c', ['cc'])
    e = diags()
    clang_limits.explain(e, TEXT, 't.c', None)
    assert [x.msg for x in d.diags + e.diags] == ['something Clang refused',
                                                   'a translator error'] * 2
