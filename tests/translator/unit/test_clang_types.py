"""clang_types.py: Clang's types as the passes read them."""
import pytest

from cpc.analysis.syntax import K
from cpc.clang_types import (
    TK_FUNCTIONNOPROTO, TK_FUNCTIONPROTO, TK_POINTER, TK_RECORD,
    adjusted_param_type, function_type_of, is_cps_function_type, is_cps_type, param_types,
    strip_sugar, tkind, type_name)
from helpers import funcs

SRC = ('typedef cps int cfun(int);\n'
       'typedef int nfun(int);\n'
       'struct s { int x; };\n'
       'typedef struct s S;\n'
       'cps int c(int x) { return x; }\n'
       'int n(int x) { return x; }\n'
       'int old() { return 0; }\n'
       'void use(cfun *cp, nfun *np, cps int (*direct)(int), S v, int a[3], char **argv) {}\n')


def params():
    u, fs = funcs(SRC)
    return u, fs, {p.spelling: p for p in fs['use'].c.get_children() if p.kind == K.PARM_DECL}


def test_cps_function_types_are_told_by_their_tag_through_typedefs_and_pointers():
    u, fs, ps = params()
    assert [is_cps_type(ps[n].type) for n in ('cp', 'np', 'direct', 'v')] == \
        [True, False, True, False]
    assert [is_cps_function_type(fs[n].c.type) for n in ('c', 'n')] == [True, False]


def test_function_type_of_a_pointer_or_function_and_its_kind():
    u, fs, ps = params()
    got = [tkind(function_type_of(t)) if function_type_of(t) is not None else None
           for t in (ps['np'].type, fs['old'].c.type, ps['v'].type)]
    assert got == [TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO, None]


def test_strip_sugar_goes_through_typedefs_and_elaboration():
    u, fs, ps = params()
    assert tkind(strip_sugar(ps['v'].type)[0]) == TK_RECORD


def test_an_array_parameter_is_adjusted_to_a_pointer_to_its_element():
    u, fs, ps = params()
    a = adjusted_param_type(ps['a'].type)
    assert (tkind(a), a.get_pointee().spelling) == (TK_POINTER, 'int')
    assert adjusted_param_type(ps['argv'].type).spelling == 'char **'


def test_type_names_spell_the_cps_tag_as_the_programmer_reads_it():
    u, fs, ps = params()
    assert [type_name(ps[n].type) for n in ('cp', 'np', 'direct')] == \
        ['cfun * (cps)', 'nfun *', 'cps int(*)(int)']


def test_param_types_are_the_prototype_s_parameter_types_in_order():
    u, fs, ps = params()
    assert [type_name(t) for t in param_types(fs['use'].c.type)] == \
        [type_name(ps[n].type) for n in ('cp', 'np', 'direct', 'v', 'a', 'argv')]
    assert [t.spelling for t in param_types(strip_sugar(ps['cp'].type.get_pointee())[0])] \
        == ['int']
    with pytest.raises(ValueError):
        param_types(fs['old'].c.type)
