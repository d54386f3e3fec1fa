"""analysis/retain.py: which locals of a cps function must live in its heap
environment."""
from cpc.analysis.func import func
from cpc.analysis.retain import boxed_vars, pragma_no_retain
from helpers import HDR, PATH, before

DECLS = ('void keep(int *p);\n'
         'void peek(int *p) __attribute__((annotate("cpc_no_retain")));\n'
         'void look(int *p);\n')


def boxed(src, environments=False):
    u, _ = before('boxing', DECLS + src)
    f = func(u, u.function_defs()[-1])
    return sorted(v.name for v in boxed_vars(u, f, pragma_no_retain(u.text), environments))


def test_a_local_whose_address_may_be_kept_across_a_call_is_boxed():
    assert boxed('#pragma cpc_no_retain(look)\n'
                 'cps void f(void) {\n'
                 '    int kept = 1, peeked = 2, looked = 3, copied = 4, sum;\n'
                 '    keep(&kept); peek(&peeked); look(&looked); memcpy(&copied, &kept, 4);\n'
                 '    cpc_yield();\n'
                 '    sum = kept + peeked + looked + copied;\n'
                 '    (void)sum;\n'
                 '}\n'.replace('memcpy', '__builtin_memcpy')) == ['kept']


def test_a_local_array_live_across_a_call_is_boxed_and_environments_box_every_live_one():
    src = ('cps int f(void) {\n'
           '    int arr[2] = {1, 2}, x = 3, dead = 4;\n'
           '    cpc_yield();\n'
           '    return arr[1] + x + (dead = 0);\n'
           '}\n')
    assert (boxed(src), boxed(src, environments=True)) == (['arr'], ['arr', 'x'])


def test_the_no_retain_pragma_lists_functions():
    assert pragma_no_retain(b'#pragma cpc_no_retain(a, "b")\n#pragma cpc_no_retain( c )\n') == \
        {'a', 'b', 'c'}
