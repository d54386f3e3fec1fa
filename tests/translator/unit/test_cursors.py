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
