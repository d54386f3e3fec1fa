"""analysis/func.py: a function's variables, cps calls, spawns and
references, and the iterator over cps bodies."""
from cpc.analysis.func import cps_bodies, expr_refs, lvalue_base, old_style, var_init
from cpc.analysis.syntax import K, walk
from cpc import frontend as fe
from helpers import HDR, PATH, funcs

SRC = ('cps int g(int);\n'
       'int h(int);\n'
       'cps int f(int a, int b) {\n'
       '    int x = g(a);\n'
       '    int y;\n'
       '    static int s;\n'
       '    h(b);\n'
       '    cpc_spawn g(x);\n'
       '    y = sizeof(g(1));\n'
       '    return x + y + s;\n'
       '}\n')


def test_func_lists_locals_and_parameters_but_not_statics():
    u, fs = funcs(SRC)
    f = fs['f']
    assert [(v.name, v.is_param) for v in f.vars.values()] == \
        [('a', True), ('b', True), ('x', False), ('y', False)]


def test_cps_calls_leave_out_spawns_and_unevaluated_sizeof():
    u, fs = funcs(SRC)
    f = fs['f']
    assert [u.src(c) for c in f.cps_calls] == ['g(a)']
    assert [u.src(s) for s in f.spawns] == ['cpc_spawn g(x)']


def test_var_of_resolves_references_to_the_function_s_variables_only():
    u, fs = funcs(SRC)
    f = fs['f']
    refs = [(n.spelling, f.var_of(n)) for n, _ in walk(f.body) if n.kind == K.DECL_REF_EXPR]
    assert [(name, v.name if v is not None else None) for name, v in refs] == [
        ('g', None), ('a', 'a'), ('h', None), ('b', 'b'), ('y', 'y'), ('x', 'x'),
        ('y', 'y'), ('s', None)]


def test_contains_cps_tells_the_subtrees_with_a_cps_call():
    u, fs = funcs(SRC)
    f = fs['f']
    stmts = list(f.body.get_children())
    assert [f.contains_cps(s) for s in stmts] == [True, False, False, False, False, False, False]


def test_var_init_is_the_initialiser_written_after_the_equals_sign():
    u, fs = funcs('void f(void) { int a = 3; int b; int c[2] = {1, 2}; }\n')
    decls = [n for n, _ in walk(fs['f'].body) if n.kind == K.VAR_DECL]
    assert [(d.spelling, u.src(var_init(u, d)) if var_init(u, d) is not None else None)
            for d in decls] == [('a', '3'), ('b', None), ('c', '{1, 2}')]


def test_lvalue_base_goes_through_members_and_array_elements_not_pointers():
    u, fs = funcs('struct s { int m[2]; int *p; };\n'
                  'void f(struct s v, struct s *q) {\n'
                  '    int a[3][3];\n'
                  '    v.m[1] = 0; v.p[0] = 0; q->m[0] = 0; a[1][2] = 0;\n}\n')
    f = fs['f']
    lhs = [list(n.get_children())[0] for n, _ in walk(f.body)
           if n.kind == K.BINARY_OPERATOR]
    bases = [lvalue_base(f, x) for x in lhs]
    assert [b.name if b is not None else None for b in bases] == ['v', None, None, 'a']


def test_expr_refs_tells_uses_writes_kills_and_addresses():
    u, fs = funcs('void g(int *);\nvoid f(int a, int b, int c, int d) {\n'
                  '    a = b + (c ? d++ : 0), g(&c);\n}\n')
    f = fs['f']
    e = list(f.body.get_children())[0]
    uses, writes, kills, addr = expr_refs(f, e)
    name = {v.key: v.name for v in f.vars.values()}
    assert [sorted(name[k] for k in s) for s in (uses, writes, kills, addr)] == \
        [['a', 'b', 'c', 'd'], ['a', 'c', 'd'], ['a'], ['c']]


def test_old_style_definitions_are_told_from_prototyped_ones():
    u, fs = funcs('int a(x, y) int x; char y; { return x; }\n'
                  'int b(z) { return z; }\n'
                  'int c(int x) { return x; }\n'
                  'int d() { return 0; }\n')
    assert [old_style(u, fs[n].c) for n in 'abcd'] == [True, True, False, False]


def test_cps_bodies_are_the_cps_definitions_with_calls_when_asked():
    u = fe.parse((HDR + 'cps void w(void);\n'
                  'cps void f(void) { cpc_yield(); }\n'
                  'cps int g(int x) { return x; }\n'
                  'void n(void) { }\n').encode(), PATH)
    assert ([f.name for f in cps_bodies(u)], [f.name for f in cps_bodies(u, with_calls=True)]) \
        == (['f', 'g'], ['f'])


def test_old_style_of_a_definition_not_listed_yet_does_not_list_its_body(monkeypatch):
    # the definition as get_definition() gives it (a new cursor, as the
    # type checker has it for each cps call): telling its style reads its
    # parameters, not the whole body (a second listing of a large function)
    from cpc import cursors
    u = fe.parse((HDR + 'int a(x, y) int x; char y; { return x; }\n'
                  'int c(int x) { { x++; } return x; }\n'
                  'int d() { return 0; }\n').encode(), PATH)
    fresh = {c.spelling: c.get_definition() for c in u.function_defs()}
    listed, real = [], cursors._children

    def spy(c):
        listed.append(c.spelling)
        return real(c)
    monkeypatch.setattr(cursors, '_children', spy)
    assert [old_style(u, fresh[n]) for n in 'acd'] == [True, False, False]
    assert listed == []


NESTED = ('cps int g(int);\n'
          'int h(int);\n'
          'cps int f(int a) {\n'
          '    int x = h(g(a) + 1) ? g(2) : h(3);\n'
          '    for (int i = 0; i < g(x); i++) { if (a) x += g(i) * 2; else x = h(x); }\n'
          '    x = a ?: g(x);\n'
          '    cpc_spawn g(x);\n'
          '    return sizeof(g(1)) + ({ int t = g(x); t; });\n'
          '}\n')


def test_contains_cps_by_the_tree_agrees_with_the_extents():
    """contains_cps climbs the cps calls' parents in the listing: a node
    holds a cps call exactly when its extent contains one's (spawned
    statements and unevaluated operands hold none)."""
    u, fs = funcs(NESTED)
    f = fs['f']
    calls = [(c.extent.start.offset, c.extent.end.offset) for c in f.cps_calls]
    assert len(calls) == 6
    nodes = [n for n, _ in walk(f.body, skip_spawn=False, into_sizeof=True)]
    holding = [n for n in nodes if f.contains_cps(n)]
    assert holding and len(holding) < len(nodes)
    for n in nodes:
        a, b = n.extent.start.offset, n.extent.end.offset
        assert f.contains_cps(n) == any(a <= s and e <= b for s, e in calls), u.src(n)


def test_a_released_unit_leaves_no_cycles_of_its_analyses_to_the_collector():
    # (the collection after each parse would go through them: a tenth of
    # func10k's translation)
    import gc
    from cpc.analysis.cfg import function_graph
    from cpc.analysis.func import func
    src = HDR + ('cps int g(int);\ncps int f(int a) {\n  int s = 0;\n'
                 '  for (int i = 0; i < a; i++) { if (i & 1) s += g(i); else continue; }\n'
                 '  while (s > 3) s = g(s);\n  return s;\n}\n')
    was = gc.isenabled()
    gc.disable()
    try:
        u = fe.parse(src.encode(), PATH)
        for c in u.function_defs():
            function_graph(func(u, c))
        gc.collect()
        u.release()
        u = c = None
        assert gc.collect() == 0
    finally:
        if was:
            gc.enable()


def test_var_of_finds_a_local_without_asking_about_its_declaration_again(monkeypatch):
    # the Func knows its locals' declarations: a reference to one (every
    # reference of a long function, each once per parse) asks libclang for
    # the declaration referenced, not again whose local it is
    from cpc.analysis import func as func_mod
    u, fs = funcs(SRC)
    f = fs['f']
    asked = []
    real = func_mod.is_local_var
    monkeypatch.setattr(func_mod, 'is_local_var', lambda d, c: asked.append(d.spelling) or real(d, c))
    refs = [n for n, _ in walk(f.body) if n.kind == K.DECL_REF_EXPR]
    names = [(n.spelling, getattr(f.var_of(n), 'name', None)) for n in refs]
    assert ('x', 'x') in names and ('a', 'a') in names
    assert not {'a', 'b', 'x', 'y'} & set(asked)
    # what is not a local of f is still told apart (a static, functions)
    assert ('s', None) in names and ('g', None) in names
