"""analysis/cfg.py: the control flow graph, its call sites in normal form,
the scopes at them, and the parts of a `for` header."""
from cpc.analysis.cfg import (Bits, Cfg, extract, for_parts, function_graph, normal_form,
                              renumbering)
from cpc.analysis.dataflow import liveness, possibly_initialised
from cpc.analysis.syntax import K, walk
from helpers import funcs

DECLS = 'cps int g(int);\ncps void w(void);\n'


def cps_function(body, params='int a'):
    u, fs = funcs(DECLS + 'cps int f(%s) {\n%s\n}\n' % (params, body))
    return u, fs['f']


def test_call_sites_are_the_cps_call_statements_in_normal_form_by_form():
    u, f = cps_function('int x;\n'
                        'w();\n'
                        'x = g(a);\n'
                        'int y = g(x);\n'
                        'x = g(a) + 1;\n'
                        'return g(y);')
    cfg = Cfg(f)
    assert [(s.form, u.src(s.call)) for s in cfg.sites] == \
        [('expr', 'w()'), ('assign', 'g(a)'), ('decl', 'g(x)'), ('return', 'g(y)')]


def test_normal_form_refuses_a_call_inside_an_expression():
    u, f = cps_function('int x;\nx = g(a) + 1;\nx = g(a);\nreturn x;')
    stmts = list(f.body.get_children())
    assert [normal_form(f, s).form if normal_form(f, s) else None for s in stmts] == \
        [None, None, 'assign', None]


def test_a_call_site_is_a_call_node_then_a_resume_node():
    u, f = cps_function('w();\nreturn a;')
    cfg = Cfg(f)
    site = cfg.sites[0]
    assert (site.call_node.kind, [n.kind for n in site.call_node.succ]) == ('call', ['resume'])
    assert site.call_node.succ[0] is site.resume_node


def test_the_scope_at_a_call_holds_the_variables_declared_before_it_in_open_blocks():
    u, f = cps_function('int x = a;\n'
                        '{ int inner = x; x += inner; }\n'
                        'w();\n'
                        'int after = x;\n'
                        'return after;')
    cfg = Cfg(f)
    names = {v.key: v.name for v in f.vars.values()}
    assert sorted(names[k] for k in cfg.sites[0].scope) == ['a', 'x']


def test_loops_and_jumps_link_back():
    u, f = cps_function('int i = 0;\n'
                        'while (i < a) { w(); if (i == 2) break; i++; }\n'
                        'return i;')
    cfg = Cfg(f)
    resume = cfg.sites[0].resume_node
    # (the resume point reaches the loop's test again and the exit)
    reach, todo = set(), [resume]
    while todo:
        n = todo.pop()
        if n.id not in reach:
            reach.add(n.id)
            todo.extend(n.succ)
    assert cfg.sites[0].call_node.id in reach and cfg.exit.id in reach


def test_for_parts_are_told_apart_by_the_semicolons_of_the_header():
    u, fs = funcs('void f(int n) {\n'
                  '    for (int i = 0; i < n; i++) n--;\n'
                  '    for (;;) break;\n'
                  '    for (; n; ) n--;\n'
                  '}\n')
    loops = [n for n, _ in walk(fs['f'].body) if n.kind == K.FOR_STMT]
    parts = [[u.src(p) if p is not None else None for p in for_parts(u, s)] for s in loops]
    assert parts == [['int i = 0;', 'i < n', 'i++', 'n--'],
                     [None, None, None, 'break'],
                     [None, 'n', None, 'n--']]


def test_bits_number_keys_in_the_order_met_and_a_closed_numbering_keeps_its_own():
    open_bits = Bits()
    assert open_bits.mask(['x', 'y']) == 0b11 and open_bits.mask(['z', 'x']) == 0b101
    assert open_bits.ordered(0b110) == ['y', 'z']
    closed = Bits(['p', 'q'])
    assert closed.mask(['q', 'r']) == 0b10 and closed.keys == ['p', 'q']


def test_bits_convert_large_masks_both_ways_as_a_set_would():
    # masks past the few bits built by shifts: thousands of keys, sparse and dense
    import random
    r = random.Random(7)
    keys = ['v%d' % i for i in range(3000)]
    bits = Bits(keys)
    for chosen in ([], ['v0'], keys, r.sample(keys, 40), r.sample(keys, 2000),
                   ['v2999', 'v5', 'v2999']):
        m = bits.mask(chosen)
        assert m == sum(1 << int(k[1:]) for k in set(chosen))
        assert bits.ordered(m) == sorted(set(chosen), key=lambda k: int(k[1:]))
        assert bits.keys_of(m) == set(chosen)


def test_extract_renumbers_a_mask_over_the_kept_keys_only():
    wide = Bits(['a', 'b', 'c', 'd', 'e'])
    kept = wide.flags(wide.mask(['b', 'd', 'e']))
    assert list(kept) == [0, 1, 0, 1, 1]
    narrow = Bits(['b', 'd', 'e'])
    for chosen in ([], ['b'], ['a', 'd'], ['a', 'b', 'c', 'd', 'e'], ['c', 'e']):
        assert extract(wide.mask(chosen), kept) == \
            narrow.mask(k for k in chosen if k in narrow.index)
    many = Bits(['k%d' % i for i in range(1000)])
    odd = many.flags(many.mask('k%d' % i for i in range(1, 1000, 2)))
    assert extract(many.mask(['k1', 'k2', 'k999']), odd) == (1 << 0) | (1 << 499)


def test_extract_reads_sparse_and_dense_masks_alike():
    # a mask with a few bits far apart is read bit by bit through the
    # renumbering, a dense one through its digits: the same answers
    import random
    r = random.Random(11)
    wide = Bits(['k%d' % i for i in range(4000)])
    kept_keys = [k for k in wide.keys if r.random() < 0.7]
    kept = wide.flags(wide.mask(kept_keys))
    places = renumbering(kept)
    narrow = Bits(kept_keys)
    for chosen in ([], ['k3999'], ['k0', 'k2000', 'k3999'], r.sample(wide.keys, 5),
                   r.sample(wide.keys, 3000), wide.keys[:100]):
        m = wide.mask(chosen)
        expected = narrow.mask(k for k in chosen if k in narrow.index)
        assert extract(m, kept, places) == expected
        assert extract(m, kept) == expected
        assert wide.ordered(m) == sorted(set(chosen), key=lambda k: int(k[1:]))


def test_call_scopes_are_renumbered_over_the_variables_in_scope_at_some_call():
    # x and z are in scope at no cps call (blocks without one): the graph's
    # numbering leaves them out, and each site's scope names the same variables
    u, f = cps_function('{ int x = 1; a += x; }\n'
                        'int y = g(a);\n'
                        '{ int z = 2; a += z; }\n'
                        'int w = g(y);\n'
                        'return w;')
    cfg = Cfg(f)
    names = [{f.vars[k].name for k in site.scope} for site in cfg.sites]
    assert names == [{'a', 'y'}, {'a', 'y', 'w'}]
    assert {f.vars[k].name for k in cfg.bits.keys} == {'a', 'y', 'w'}


def test_a_function_graph_and_its_data_flow_are_made_once_per_parse():
    u, f = cps_function('int x = g(a);\nreturn g(x);')
    cfg = function_graph(f)
    assert function_graph(f) is cfg
    assert liveness(cfg) is liveness(cfg)
    assert possibly_initialised(cfg) is possibly_initialised(cfg)
    # (another parse of the same text: another Func, another graph, the same answers)
    u2, f2 = cps_function('int x = g(a);\nreturn g(x);')
    other = function_graph(f2)
    assert other is not cfg
    assert [(s.form, u2.src(s.call)) for s in other.sites] == \
        [(s.form, u.src(s.call)) for s in cfg.sites]
    live, live2 = liveness(cfg)[0], liveness(other)[0]
    assert [live[s.resume_node.id] for s in cfg.sites] == \
        [live2[s.resume_node.id] for s in other.sites]


def test_a_return_of_a_call_is_told_a_call_site_without_comparing_cursors(monkeypatch):
    # comparing two cursors is a call into libclang: a `return` of a call
    # compared with each of the function's cps calls made a function with
    # thousands of returns quadratic (in normalize and the emitter)
    import clang.cindex as ci
    u, f = cps_function('\n'.join('if (a == %d) return g(a + %d);' % (i, i) for i in range(6)) +
                        '\nif (a) return a + 1;\nreturn g(a);')
    compared = []
    monkeypatch.setattr(ci.Cursor, '__eq__', lambda x, y: compared.append((x, y)) or x is y)
    sites = [(s.form, u.src(s.call)) for s in Cfg(f).sites]
    assert sites == [('return', 'g(a + %d)' % i) for i in range(6)] + [('return', 'g(a)')]
    assert compared == []
