"""retain (analysis/retain.py): which locals of a cps function must live in
its heap environment: an address that may be retained while in scope at a
cps call, an array live across one, every variable live across one with
--dataflow=environments."""

from cpc import frontend as fe
from cpc.analysis import retain
from cpc.analysis.func import func
from helpers import HDR, PATH
from cpc.analysis.retain import boxed_vars, pragma_no_retain
from helpers import HDR, PATH, before


G = 'cps void g(void);\nvoid keep(int *);\n'


def parsed_f(src):
    u = fe.parse((HDR + G + src).encode(), PATH)
    return func(u, [c for c in u.function_defs() if c.spelling == 'f'][0])


def boxed(src, names=(), environments=False):
    f = parsed_f(src)
    return [v.name for v in retain.boxed_vars(f.u, f, set(names), environments)]


def test_an_address_passed_to_an_unknown_function_may_be_retained():
    assert boxed('cps void f(void) { int x = 1; keep(&x); g(); }\n') == ['x']


def test_an_address_passed_to_a_function_known_not_to_keep_it_is_not():
    assert boxed('int memcmp(const void *, const void *, unsigned long);\n'
                 'cps void f(void) { int x = 1, y = 2; memcmp(&x, &y, sizeof x); g(); }\n') == []


def test_an_address_used_at_once_is_not_retained():
    assert boxed('struct s { int a; };\ncps void f(void) { struct s v = {1}; int k = (&v)->a; '
                 'int m = *&k; g(); (void)m; }\n') == []


def test_a_pragma_names_functions_that_do_not_keep_addresses():
    src = '#pragma cpc_no_retain(keep)\ncps void f(void) { int x = 1; keep(&x); g(); }\n'
    assert retain.pragma_no_retain(src.encode()) == {'keep'}
    assert boxed(src, names={'keep'}) == []


def test_a_pragma_may_name_several_functions_quoted_or_not():
    assert retain.pragma_no_retain(b'#pragma cpc_no_retain(a, "b")\n'
                                   b'# pragma  cpc_no_retain( c )\n') == {'a', 'b', 'c'}


def test_the_cpc_no_retain_attribute_says_the_same():
    assert boxed('void look(int *) __attribute__((cpc_no_retain));\n'
                 'cps void f(void) { int x = 1; look(&x); g(); }\n') == []


def test_an_address_taken_out_of_scope_of_every_cps_call_is_not_boxed():
    assert boxed('cps void f(void) { { int x = 1; keep(&x); } g(); }\n') == []


def test_an_array_live_across_a_call_is_boxed_and_a_dead_one_is_not():
    assert boxed('cps int f(void) { int a[2] = {1, 2}; int d[2] = {3, 4}; int s = d[0]; g(); '
                 'return a[1] + s; }\n') == ['a']


def test_environments_box_every_variable_live_across_a_call():
    src = 'cps int f(int n) { int a = n, dead = 2; g(); return a + n; }\n'
    assert boxed(src) == []
    assert boxed(src, environments=True) == ['n', 'a']


DECLS = ('void keep(int *p);\n'
         'void peek(int *p) __attribute__((annotate("cpc_no_retain")));\n'
         'void look(int *p);\n')


def boxed_sorted(src, environments=False):
    u, _ = before('boxing', DECLS + src)
    f = func(u, u.function_defs()[-1])
    return sorted(v.name for v in boxed_vars(u, f, pragma_no_retain(u.text), environments))


def test_a_local_whose_address_may_be_kept_across_a_call_is_boxed():
    assert boxed_sorted('#pragma cpc_no_retain(look)\n'
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
    assert (boxed_sorted(src), boxed_sorted(src, environments=True)) == (['arr'], ['arr', 'x'])


def test_the_no_retain_pragma_lists_functions():
    assert pragma_no_retain(b'#pragma cpc_no_retain(a, "b")\n#pragma cpc_no_retain( c )\n') == \
        {'a', 'b', 'c'}
