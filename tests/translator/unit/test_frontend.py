"""frontend.py and analysis/func.py's Func: what the passes are told about a parse."""
import subprocess
import sys
import os

import pytest

from cpc.analysis.func import cps_function_defs, func
from cpc.analysis.syntax import K, sizeof_evaluated, spawn_body, walk
from cpc.cursors import kids
from cpc import frontend as fe
from cpc import cursors
from helpers import funcs


def test_cps_detected_through_attribute_spelling():
    u, fs = funcs('__attribute__((cps)) void f(void) { cpc_yield(); }\nvoid g(void) {}\n')
    assert fs['f'].is_cps and not fs['g'].is_cps


def test_cps_call_detected_through_pointer():
    u, fs = funcs('typedef cps int fn(int);\ncps int h(fn *p) { return p(1); }\n')
    assert len(fs['h'].cps_calls) == 1


def test_sizeof_operand_is_not_a_call():
    u, fs = funcs('cps int g(void);\ncps int f(void) { return sizeof(g()); }\n')
    assert fs['f'].cps_calls == []


def test_bindings_are_left_unchanged_for_other_users():
    """Importing and using the front-end changes nothing in clang.cindex:
    another user of the bindings in the process sees them as shipped."""
    code = '''
import clang.cindex as ci
before = {c: dict(vars(c)) for c in (ci.Cursor, ci.SourceRange, ci.SourceLocation)}
lib = ci.conf.lib
sig = (lib.clang_getCursorExtent.argtypes, lib.clang_getCursorExtent.restype)
from cpc import cursors
from cpc import frontend as fe
u = fe.parse(b'int f(int x) { return x + 1; }\\n', 't.c')
assert [c.spelling for c in u.function_defs()] == ['f']
cursors.binop(list(cursors.kids(u.function_defs()[0]))[1])
after = {c: dict(vars(c)) for c in (ci.Cursor, ci.SourceRange, ci.SourceLocation)}
assert before == after, [k for k in before if before[k] != after[k]]
assert not hasattr(lib, 'clang_getCursorBinaryOperatorKind') or \\
    lib.clang_getCursorBinaryOperatorKind.argtypes is None
assert (lib.clang_getCursorExtent.argtypes, lib.clang_getCursorExtent.restype) == sig
root = ci.Index.create().parse('u.c', unsaved_files=[('u.c', 'int g;')]).cursor
assert type(root) is ci.Cursor and type(next(root.get_children())) is ci.Cursor
print('ok')
'''
    top = os.path.join(os.path.dirname(__file__), '..', '..', '..')
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(top, 'translator')))
    assert r.stdout.strip() == 'ok', r.stderr


WALK_SRC = '''
struct s { int a[4]; };
cps int g(int);
int h(int x) { return x * 2; }
cps int f(int n) {
    struct s v = { { 1, 2, 3, 4 } };
    int k = sizeof(g(n)) + (int)_Alignof(struct s) + sizeof(int[n]);
    cpc_spawn { int m = g(k); h(m + v.a[1]); cpc_spawn h(m); }
    for (int i = 0; i < n; i++)
        k += h(i) ? g(i) : v.a[i & 3];
    return g(k) + (n > 1 ? h(n) : 0);
}
'''


def _naive_walk(c, skip_spawn, into_sizeof):
    """The walk as its documentation says, by recursion over the children."""
    out = []

    def rec(n, p):
        out.append((n, p))
        if n.kind == K.CXX_UNARY_EXPR and not into_sizeof and not sizeof_evaluated(n):
            return
        if skip_spawn and spawn_body(n) is not None:
            return
        for x in kids(n):
            rec(x, n)
    rec(c, None)
    return out


SIZEOF_SRC = '''
typedef int row[4];
int f(int n, int m) {
    int v[n], a[3], (*p)[n] = 0;
    typedef int vrow[m];
    return sizeof v + sizeof a + sizeof *p + sizeof(int[n]) + sizeof(char[2][m])
        + sizeof(row) + sizeof(vrow) + sizeof(n) + _Alignof(struct { int x; })
        + sizeof(int[3]) + sizeof(a[n]);
}
'''


def test_sizeof_operand_is_evaluated_when_it_is_a_variable_length_array():
    """C11 6.5.3.4p2: a VLA operand, expression or type name, is evaluated
    (its bounds are read); other operands are not."""
    u, fs = funcs(SIZEOF_SRC)
    got = [(u.src(n), sizeof_evaluated(n)) for n, _ in walk(fs['f'].c, into_sizeof=True)
           if n.kind == K.CXX_UNARY_EXPR]
    assert got == [('sizeof v', True), ('sizeof a', False), ('sizeof *p', True),
                   ('sizeof(int[n])', True), ('sizeof(char[2][m])', True),
                   ('sizeof(row)', False), ('sizeof(vrow)', False), ('sizeof(n)', False),
                   ('_Alignof(struct { int x; })', False), ('sizeof(int[3])', True),
                   ('sizeof(a[n])', False)]


def test_walk_is_the_preorder_of_every_subtree():
    """Every walk, from any node and in every way of walking, is the
    preorder of its subtree with its parents (the root's parent None),
    leaving out sizeof operands and spawned statements as asked: the
    walks are cut from the preorder listed with the children."""
    u, fs = funcs(WALK_SRC)
    f = fs['f']
    nodes = [n for n, _ in walk(f.c, skip_spawn=False, into_sizeof=True)]
    assert len(nodes) > 60
    for root in nodes:
        for skip_spawn in (False, True):
            for into_sizeof in (False, True):
                got = list(walk(root, skip_spawn, into_sizeof))
                want = _naive_walk(root, skip_spawn, into_sizeof)
                assert [(n is a, p is b) for (n, p), (a, b) in zip(got, want)] == \
                    [(True, True)] * len(want) and len(got) == len(want)


def test_release_empties_the_cursors():
    """A released unit's cursors hold nothing of the analyses (they are
    freed without the garbage collector)."""
    u, fs = funcs(WALK_SRC)
    body = fs['f'].body
    nodes = [n for n, _ in walk(body, skip_spawn=False)]
    func(u, fs['f'].c)
    u.release()
    assert all(not n.__dict__ for n in nodes)


def test_cps_function_defs():
    u, fs = funcs(WALK_SRC)
    assert [c.spelling for c in cps_function_defs(u)] == ['f']


def test_children_listed_with_the_subtree_are_libclangs():
    """The children listed in one visit of a subtree, from any root (a
    declaration, or a statement or expression obtained alone), are those
    that libclang lists one level at a time, in order."""
    import clang.cindex as ci
    from cpc import frontend as fe
    u, fs = funcs(WALK_SRC)

    def one_level(c):
        return [(x.kind, x.spelling) for x in ci.Cursor.get_children(c)]

    def all_nodes(c, out):
        out.append(c)
        for x in ci.Cursor.get_children(c):
            all_nodes(x, out)
        return out

    for root in all_nodes(fs['f'].c, []):
        alone = cursors.adopt(ci.Cursor.from_buffer_copy(root))    # listed by nobody yet
        alone._tu = root._tu
        walked = [n for n, _ in walk(alone, skip_spawn=False, into_sizeof=True)]
        assert len(walked) == len(all_nodes(alone, []))
        for n in walked:
            assert [(x.kind, x.spelling) for x in cursors.kids(n)] == one_level(n)


def test_the_bound_of_a_sizeof_type_name_is_one_child():
    # (libclang visits it twice)
    u = fe.parse(b'int f(int);\nlong g(int n) { return sizeof(int[f(n)]); }\n', 't.c')
    size = [n for n, _ in walk(u.top()[-1], into_sizeof=True)
            if n.kind == fe.K.CXX_UNARY_EXPR][0]
    assert [k.kind for k in kids(size)] == [fe.K.CALL_EXPR]


def test_collected_errors_are_raised_together_by_file_then_line():
    errors = fe.Collected()
    with errors.part():
        raise fe.Diags([fe.Diag('late', 'a.cpc', 9, 1), fe.Diag('header', 'h.h', 2, 1)])
    with errors.part():
        raise fe.Diags([fe.Diag('early', 'a.cpc', 3, 7), fe.Diag('same line', 'a.cpc', 3, 2)])
    with errors.part():
        pass
    with pytest.raises(fe.Diags) as e:
        errors.raise_any()
    assert [(d.file, d.line, d.col, d.msg) for d in e.value.diags] == [
        ('a.cpc', 3, 2, 'same line'), ('a.cpc', 3, 7, 'early'), ('a.cpc', 9, 1, 'late'),
        ('h.h', 2, 1, 'header')]


def test_an_error_two_parts_find_is_collected_once():
    errors = fe.Collected()
    for _ in range(2):
        with errors.part():
            raise fe.Diags([fe.Diag('contradiction', 'a.cpc', 4, 1)])
    with errors.part():
        raise fe.Diags([fe.Diag('contradiction', 'a.cpc', 5, 1)])
    with pytest.raises(fe.Diags) as e:
        errors.raise_any()
    assert [(d.line, d.msg) for d in e.value.diags] == [(4, 'contradiction'), (5, 'contradiction')]


def test_nothing_collected_raises_nothing():
    fe.Collected().raise_any()


def _decl_refs(u, name):
    f = [c for c in u.function_defs() if c.spelling == name][0]
    return [n for n, _ in walk(f)
            if n.kind == K.DECL_REF_EXPR]


def test_written_is_where_each_reference_is_spelt(tmp_path):
    # the references of a function body: in the file, in a macro argument,
    # out of a macro's body, and out of a file included in the body (whose
    # offsets are the included file's, outside every macro of the main file)
    (tmp_path / 'body.inc').write_text('a = a + 1;\n')
    text = (b'#define ID(x) (x)\n#define A a\n'
            b'int f(int a) {\n#include "body.inc"\n  return ID(a) + A + a;\n}\n'
            b'int g(int a) { return ID(a) + A + a; }\n')
    path = str(tmp_path / 'w.c')
    u = fe.parse(text, path)
    for name in ('f', 'g'):
        spelt = [(u.written(n), n.extent.start.offset) for n in _decl_refs(u, name)]
        plain = [(r, a) for (r, a) in spelt if r is not None]
        # the `a` in ID's argument and the last one are written; A's `a` is
        # not, nor are the two of the included file
        assert [text[r[0]:r[1]] for r, _ in plain] == [b'a', b'a'], (name, spelt)
        assert len(spelt) == (5 if name == 'f' else 3), spelt


def test_an_attribute_inherited_from_a_header_is_not_written_in_the_file(tmp_path):
    # (libclang lists it among the children of the file's declaration, with
    # the header's offsets)
    (tmp_path / 'h.h').write_text('void f(int *p) __attribute__((nonnull));\n')
    text = b'#include "h.h"\nvoid f(int *p);\nint g(void) { return 0; }\n'
    u = fe.parse(text, str(tmp_path / 't.c'))
    f = [c for c in u.main_top() if c.spelling == 'f'][0]
    attrs = [k for k in kids(f) if k.kind.is_attribute()]
    assert attrs
    assert [u.written(k) for k in attrs] == [None]
