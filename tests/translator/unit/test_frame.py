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
