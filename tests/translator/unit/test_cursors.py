"""cursors.py: one object per node and parse, children listed once, facts
kept on the cursor, operator kinds."""
from cpc.analysis.syntax import K, walk
from cpc.cursors import BO, UO, Cursor, adopt, binop, kids, once_per_cursor, place, unop
from helpers import funcs


def test_children_are_one_list_of_the_same_objects_each_time():
    u, fs = funcs('int f(int x) { return x + 1; }\n')
    body = fs['f'].body
    assert kids(body) is kids(body)
    ret = kids(body)[0]
    assert kids(ret)[0] is kids(kids(body)[0])[0]


def test_adopted_cursors_are_the_translator_s_class():
    u, fs = funcs('int g;\nint f(void) { return g; }\n')
    ref = [n for n, _ in walk(fs['f'].body) if n.kind == K.DECL_REF_EXPR][0]
    d = adopt(ref.referenced)
    assert (type(d) is Cursor, d.spelling, d.kind) == (True, 'g', K.VAR_DECL)


def test_once_per_cursor_computes_once():
    u, fs = funcs('int f(void) { return 0; }\n')
    calls = []
    c = fs['f'].c
    r = [once_per_cursor(c, 'test fact', lambda x: calls.append(x) or len(calls))
         for _ in range(3)]
    assert (r, len(calls)) == ([1, 1, 1], 1)


def test_operator_kinds_of_binary_and_unary_operators():
    u, fs = funcs('int f(int x) { x += 2; x = -x; return x < 3 && !x; }\n')
    ops = [(n.kind, binop(n) if n.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR)
            else unop(n))
           for n, _ in walk(fs['f'].body)
           if n.kind in (K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.UNARY_OPERATOR)]
    assert ops == [(K.COMPOUND_ASSIGNMENT_OPERATOR, BO['AddAssign']),
                   (K.BINARY_OPERATOR, BO['Assign']), (K.UNARY_OPERATOR, UO['Minus']),
                   (K.BINARY_OPERATOR, BO['LAnd']), (K.BINARY_OPERATOR, BO['LT']),
                   (K.UNARY_OPERATOR, UO['LNot'])]


def test_a_listed_node_has_its_place_in_its_subtree_s_preorder():
    u, fs = funcs('int f(int x) { return x; }\n')
    body = fs['f'].body
    sub, i = place(body)
    assert sub.nodes[i] is body and sub.nodes[sub.ends[i] - 1].kind == K.DECL_REF_EXPR


# The C helper (native.py) and the listing through the bindings must list
# the same trees: both are tested, on the same sources.

import contextlib
import os

import pytest

from cpc import frontend as fe
from cpc import native
from cpc import pipeline
from helpers import HDR, PATH

LISTED = HDR + '''
struct s { int a[4]; int b; };
int g(int n) {
    int v[n];
    struct s x = { { 1, 2 }, 3 };
    v[0] = sizeof(int[n]) + sizeof v + sizeof(x.a[1]);
    for (int i = 0; i < n; i++)
        if (i & 1) v[0] += "ab"[i & 1] + 1.5 * 'c';
        else { switch (i) { case 1: break; default: v[0]--; } }
    return v[0] ? x.b : (int)sizeof(int[n][2]);
}
cps void h(int k) { while (k--) cpc_yield(); }
'''


@contextlib.contextmanager
def listing(with_helper):
    """The cursors of a parse listed with the helper, or through the
    bindings."""
    old = os.environ.get('CPC_NO_NATIVE')
    os.environ['CPC_NO_NATIVE'] = '' if with_helper else '1'
    native.reset()
    try:
        yield
    finally:
        if old is None:
            del os.environ['CPC_NO_NATIVE']
        else:
            os.environ['CPC_NO_NATIVE'] = old
        native.reset()


def shape(u):
    """Every top-level declaration of u's main file, listed: per node its
    kind, spelling, extent's and location's offsets, lines and columns,
    parent's index and subtree's end, and the children of each node as
    indexes."""
    out = []
    for c in u.main_top():
        kids(c)
        p = place(c)
        if p is None:
            out.append((c.kind, c.spelling, None))
            continue
        sub = p[0]
        index = {id(n): i for i, n in enumerate(sub.nodes)}
        out.append([(n.kind, n.spelling, n.extent.start.offset, n.extent.end.offset,
                     n.location.offset, (n.extent.start.line, n.extent.end.column),
                     (n.location.line, n.location.column, n.location.file.name),
                     index.get(id(sub.parents[i])), sub.ends[i],
                     [index[id(k)] for k in kids(n)], place(n)[1] if i else 0)
                    for i, n in enumerate(sub.nodes)])
    return out


def test_the_helper_and_the_bindings_list_the_same_trees(monkeypatch):
    from cpc import cursors
    by_helper = []
    monkeypatch.setattr(cursors, '_subtree_native',
                        lambda *a, f=cursors._subtree_native: by_helper.append(f(*a)) or
                        by_helper[-1])
    with listing(True):
        a = shape(fe.parse(LISTED.encode(), PATH))
    assert len(by_helper) >= 3 and None not in by_helper     # (none given up)
    # (the extents of the nodes below each root made from the helper's facts)
    assert all(n.extent.__dict__.get('_facts') for sub in by_helper for n in sub.nodes[1:])
    del by_helper[:]
    with listing(False):
        from cpc.cursors import _lister
        assert _lister() is None
        b = shape(fe.parse(LISTED.encode(), PATH))
    assert a == b and len(a) > 2 and by_helper == []


def test_the_translation_unit_s_children_are_listed_one_level_either_way():
    for helper in (True, False):
        with listing(helper):
            u = fe.parse(LISTED.encode(), PATH)
            top = kids(u.tu.cursor)
            assert all(type(c) is Cursor and c._tu is u.tu for c in top)
            assert [c.spelling for c in top if c.spelling in ('s', 'g', 'h')] == ['s', 'g', 'h']


@pytest.mark.parametrize('helper', [True, False])
def test_a_translation_writes_the_same_c_with_the_helper_or_without(helper):
    with listing(helper):
        c = pipeline.translate(LISTED.encode(), PATH)
    with listing(not helper):
        assert pipeline.translate(LISTED.encode(), PATH) == c


def test_a_cursor_kinds_tests_ask_libclang_once_per_kind(monkeypatch):
    # (the passes ask is_expression of most nodes they meet: a C call each
    # time through the bindings)
    import clang.cindex as ci
    kind = ci.CursorKind.PAREN_EXPR
    kind.__dict__.pop('_cpc_is_expression', None)
    calls = []
    real = ci.conf.lib.clang_isExpression
    monkeypatch.setattr(ci.conf.lib, 'clang_isExpression', lambda k: calls.append(k) or real(k))
    assert [kind.is_expression() for _ in range(3)] == [True, True, True]
    assert len(calls) == 1
    assert ci.CursorKind.VAR_DECL.is_expression() is False
    assert ci.CursorKind.VAR_DECL.is_declaration() is True


def test_a_listed_reference_knows_its_declaration_without_a_call(monkeypatch):
    # the helper lists each reference's declaration with its facts: the
    # passes ask it of every reference to a variable, once per parse
    from cpc.libclang import lib
    with listing(True):
        u = fe.parse(LISTED.encode(), PATH)
        refs = [n for c in u.main_top() for n, _ in walk(c)
                if n.kind == K.DECL_REF_EXPR and n.__dict__.get('place')]
        calls = []
        real = lib().clang_getCursorReferenced
        monkeypatch.setattr(lib(), 'clang_getCursorReferenced',
                            lambda c: calls.append(c) or real(c), raising=False)
        decls = [n.referenced for n in refs]
        assert len(refs) > 10 and calls == []
        monkeypatch.undo()
        # the same declarations as libclang gives, of the same class and unit
        for n, d in zip(refs, decls):
            r = lib().clang_getCursorReferenced(n)
            assert bytes(d) == bytes(r) and type(d) is type(r) and d._tu is n._tu
        assert {d.spelling for d in decls} >= {'n', 'v', 'x', 'i', 'k'}
