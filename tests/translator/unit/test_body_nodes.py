"""emit/body_nodes: the nodes of a body the emitter looks at more than once,
found in one walk."""
from cpc.analysis.syntax import walk
from cpc.emit.body_nodes import body_nodes
from cpc import frontend as fe
from helpers import funcs

K = fe.K

SRC = ('int g(int);\n'
       'int f(int a) {\n'
       '    int *p = &a, b = g(a) + g(2);\n'
       '    if (b) return *p;\n'
       '    b += sizeof(g(3));\n'
       '    return b;\n'
       '}\n'
       'int h(int a) {\n'
       '    again: if (a--) goto again;\n'
       '    return a;\n'
       '}\n')


def test_the_body_s_calls_addresses_references_and_returns_in_the_walk_s_order():
    u, fs = funcs(SRC)
    body = fs['f'].body
    n = body_nodes(body)
    every = [x for x, _ in walk(body, skip_spawn=False)]
    # (the operand of sizeof is not evaluated: the walk does not enter it)
    assert [u.src(c) for c in n.calls] == ['g(a)', 'g(2)']
    assert [u.src(c) for c in n.addr_of] == ['&a']
    assert n.refs == [x for x in every if x.kind == K.DECL_REF_EXPR]
    assert [u.src(c) for c in n.returns] == ['return *p', 'return b']
    assert not n.jump


def test_a_body_with_a_label_or_goto_jumps():
    _, fs = funcs(SRC)
    assert body_nodes(fs['h'].body).jump


def test_the_nodes_are_found_once_per_body():
    _, fs = funcs(SRC)
    assert body_nodes(fs['f'].body) is body_nodes(fs['f'].body)
