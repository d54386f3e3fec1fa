"""emit/frame.py: a cps function's signature as the generated items declare
it, and its frame (what lives across its calls, what is stored once)."""
import pytest

from cpc.analysis.cfg import Cfg
from cpc.analysis.func import func
from cpc.emit.declarations import Declarations
from cpc.emit.frame import FrameLayout, Signature
from cpc.emit.lift import Lifting
from cpc.emit.split import split
from cpc import frontend as fe
from helpers import before

DECLS = 'cps int g(int);\n'


def emitter_input(src):
    """(emitter, Func of the last function) on the unit the emitter receives."""
    u, _ = before('emit', DECLS + src)
    return Declarations(u), func(u, u.function_defs()[-1])


def test_the_signature_declares_the_parameters_for_each_generated_item():
    em, f = emitter_input('static cps long f(const int a, char *s) { return a; }\n')
    sig = Signature(em, f)
    assert (sig.pnames, sig.pdecls, sig.bdecls, sig.pfields, sig.void, sig.lead) == (
        ['a', 's'], ['const int a', 'char *s'], ['int a', 'char *s'],
        ['int a;', 'char *s;'], False, 'static ')


def test_a_parameter_of_variably_modified_type_is_refused():
    em, f = emitter_input('cps int f(int n, int (*m)[n]) { return n; }\n')
    with pytest.raises(fe.Diags) as e:
        Signature(em, f)
    assert [d.msg for d in e.value.diags] == [
        'cps function `f` cannot take `m`, a parameter of variably modified type (a '
        'variable-length array); pass a pointer of a fixed type and index it by hand']


def test_the_frame_holds_what_lives_across_calls_parameters_first():
    em, f = emitter_input('cps int f(int a, int b) {\n'
                          '    int x = g(a);\n'
                          '    int dead = x;\n'
                          '    int y = g(x);\n'
                          '    b++;\n'
                          '    return g(y + b + a);\n'
                          '}\n')
    cfg = Cfg(f)
    sites = split(f, cfg)
    layout = FrameLayout(em, f, cfg, sites, Lifting(f, cfg))
    # (x and y are the calls' results, `return g(...)` a tail call: no resume)
    assert ([s.index for s in sites], layout.fields, [v.name for v in layout.fixed]) == \
        ([1, 2], ['int a;', 'int b;'], ['a'])
    assert {i: [v.name for v in vs] for i, vs in layout.site_vars.items()} == \
        {1: ['a', 'b'], 2: ['a', 'b']}


def resident_layout(src):
    from cpc.analysis.retain import addresses_taken
    from cpc.emit.resident import for_headers_shared
    em, f = emitter_input(src)
    cfg = Cfg(f)
    sites = split(f, cfg)
    return FrameLayout(em, f, cfg, sites, Lifting(f, cfg), (), True,
                       addresses_taken(f) | for_headers_shared(f))


def test_resident_variables_are_neither_stored_nor_restored_and_parameters_come_in_once():
    layout = resident_layout('cps int f(int a, int b) {\n'
                             '    int x = g(a);\n'
                             '    b++;\n'
                             '    int y = g(x);\n'
                             '    return y + b + a + x;\n'
                             '}\n')
    assert sorted(v.name for v in layout.resident.values()) == ['a', 'b', 'x']
    assert [v.name for v in layout.fixed] == ['a', 'b']      # (b is assigned: lifting stores it)
    assert layout.site_vars == {1: [], 2: []} and layout.site_stores == {1: [], 2: []}
    assert layout.fields == ['int a;', 'int b;', 'int x;']


def test_an_address_taken_volatile_or_aligned_variable_stays_lifted():
    layout = resident_layout('cps int f(int a) {\n'
                             '    int p = a, q = a;\n'
                             '    volatile int v = a;\n'
                             '    _Alignas(16) int w = a;\n'
                             '    __builtin_memset(&p, 0, sizeof p);\n'
                             '    int y = g(a);\n'
                             '    return y + p + q + v + w + a;\n'
                             '}\n')
    assert sorted(v.name for v in layout.resident.values()) == ['a', 'q']
    assert [v.name for v in layout.site_vars[1]] == ['p', 'v', 'w']
