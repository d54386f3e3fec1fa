"""emit/typetexts: the texts and facts of a type, once per type and file."""
from cpc import ctype
from cpc.clang_types import adjusted_param_type
from cpc.emit.typetexts import declared, of_type, same_type
from helpers import funcs

SRC = ('typedef const int cint;\n'
       'int f(int a, int (*p)[4], void (*fp)(int, char *), cint c, cint *q, int arr[3]) {\n'
       '    long x = a; short y = a; const char *const s = 0;\n'
       '    return (int)x + y + (s != 0) + c + *q + arr[0];\n'
       '}\n')


def types():
    _, fs = funcs(SRC)
    f = fs['f']
    return [(v.name, v.cursor.type) for v in f.vars.values()]


def test_a_declaration_with_the_name_in_its_slot_is_ctypes():
    memo = {}
    for name, t in types():
        for fn, args in ((ctype.declare, ()), (ctype.declare, (True,)),
                         (ctype.declare_field, ()), (ctype.declare_rvalue, ())):
            assert declared(memo, fn, t, name, *args) == fn(t, name, *args), (name, fn)
            assert declared(memo, fn, t, 'other', *args) == fn(t, 'other', *args)


def test_a_type_s_text_is_written_once(monkeypatch):
    calls = []
    declare = ctype.declare

    def counted(t, name, *a):
        calls.append(name)
        return declare(t, name, *a)
    memo = {}
    (_, t), = [(n, t) for n, t in types() if n == 'x']
    for i in range(50):
        assert declared(memo, counted, t, 'v%d' % i) == 'long v%d' % i
    assert len(calls) == 1
    assert of_type(memo, ctype.is_void, t) is False
    assert same_type(memo, t, t)


def test_a_decayed_parameter_type_is_asked_each_time():
    _, fs = funcs(SRC)
    arr = [v for v in fs['f'].vars.values() if v.name == 'arr'][0]
    t = adjusted_param_type(arr.cursor.type)
    memo = {}
    assert declared(memo, ctype.declare, t, 'b') == ctype.declare(t, 'b')
    assert memo == {}
