"""nested_captures.py: what lifting nested functions decides before it
writes: lifted names, what each nested function uses, environments."""
from cpc.nested_captures import Captures, Item, as_local

HDR = '#include <cpc/cpc_runtime.h>\n'

SRC = HDR + ('int outer(int a) {\n'
             '    int b = 2;\n'
             '    int add(int x) { return x + a; }\n'
             '    int none(int y) { return y; }\n'
             '    int both(int z) { b += add(z); return b; }\n'
             '    return both(1) + none(2);\n'
             '}\n')


def decided(src=SRC):
    c = Captures(src.encode(), 't.cpc', [])
    for f in c.fns:
        f.forward = None
        f.early_use = False
    assert c.decide()
    return c, {f.name: f for f in c.fns}


def test_lifted_names_chain_the_enclosing_functions():
    c, fns = decided()
    assert {f.name: c.lifted[f] for f in c.fns if f.parent is not None} == \
        {'add': 'outer__add', 'none': 'outer__none', 'both': 'outer__both'}


def test_what_each_nested_function_captures():
    c, fns = decided()
    def captured(name):
        return sorted(it.name if isinstance(it, Item) else 'env of ' + it.name
                      for it in c.needs[fns[name]].values())
    assert (captured('add'), captured('none'), captured('both')) == \
        (['a'], [], ['b', 'env of add'])
    assert {n: c.has_env[fns[n]] for n in ('add', 'none', 'both')} == \
        {'add': True, 'none': False, 'both': True}


def test_nested_functions_in_a_group_not_taken_are_left_alone():
    c = Captures((HDR + 'int outer(void) {\n#if 0\n    int in(void) { return 1; }\n#endif\n'
                  '    return 0;\n}\n').encode(), 't.cpc', [])
    assert [f.name for f in c.fns] == ['outer', 'in']
    for f in c.fns:
        f.forward = None
        f.early_use = False
    assert (c.decide(), c.tops) == (False, [])


def test_parameters_become_locals_with_arrays_and_functions_as_pointers():
    assert [as_local(p) for p in ('int v[]', 'int m[3][4]', 'int g(int)', 'const char *s')] == \
        ['int (*v)', 'int (*m) [ 4 ]', 'int (*g) ( int )', 'const char *s']


def test_a_parenthesised_declarator_is_looked_into_not_taken_for_a_function():
    """(`int (*fn)(int)` was rewritten `(*int) ( * fn ) ( int )`, which
    Clang refused: the parameter was not declared in the resolving parse and
    a use of it resolved to an enclosing variable of its name)"""
    assert [as_local(p) for p in ('int (*fn)(int)', 'int (*tab[2])(int)', 'T (*row)[2]',
                                  '_Atomic(int) *p')] == \
        ['int (*fn)(int)', 'int ( * (*tab) ) ( int )', 'T (*row)[2]', '_Atomic(int) *p']
