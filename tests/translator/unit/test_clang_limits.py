"""clang_limits.py: Clang's errors on a file the C compiler accepts say
that they are Clang's limits."""
from cpc import clang_limits
from cpc import frontend as fe

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
