"""ctype: C types spelled as declarations at file scope."""
from cpc.analysis.syntax import walk
from cpc import ctype
from cpc import frontend as fe


def var_types(src):
    u = fe.parse(src.encode(), 't.c')
    f = u.function_defs()[-1]
    return {n.spelling: n.type for n, _ in walk(f) if n.kind == fe.K.VAR_DECL}


def test_a_vector_of_a_local_typedef_is_spelled_with_its_attribute():
    ts = var_types('void f(void) { typedef short v8 __attribute__((vector_size(16))); '
                   'const v8 a = {0}; v8 *p = 0; v8 arr[2]; }\n')
    vec = '__typeof__(short __attribute__((vector_size(16))))'
    assert ctype.declare(ts['a'], 'x') == 'const %s x' % vec
    assert ctype.declare_field(ts['a'], 'x') == '%s x' % vec
    assert ctype.declare(ts['p'], 'x') == '%s *x' % vec
    assert ctype.declare(ts['arr'], 'x') == '%s x[2]' % vec


def test_a_declaration_is_written_once_per_type_name_and_parse(monkeypatch):
    # (the emitter declares a frame's variables again at each of its
    # chunks, normalize a temporary's type at each call: each declaration
    # asks libclang for spellings and canonical types)
    u = fe.parse(b'struct s { int a; };\nvoid f(void) { const unsigned x = 1; struct s y; '
                 b'unsigned z = x; }\n', 't.c')
    f = u.function_defs()[-1]
    ts = {n.spelling: n.type for n, _ in walk(f) if n.kind == fe.K.VAR_DECL}
    made = []
    real = ctype._decl
    monkeypatch.setattr(ctype, '_decl', lambda t, *a: made.append(a[0]) or real(t, *a))
    assert [ctype.declare(ts['x'], 'v') for _ in range(3)] == ['const unsigned int v'] * 3
    assert [ctype.declare_field(ts['x'], 'v') for _ in range(2)] == ['unsigned int v'] * 2
    assert ctype.declare(ts['z'], 'w') == 'unsigned int w'
    assert ctype.declare(ts['y'], 'v') == 'struct s v'
    assert made == ['v', 'v', 'w', 'v']
    # another parse, another memo
    u2 = fe.parse(b'typedef int s;\nvoid f(void) { s y; }\n', 't.c')
    y2 = [n.type for n, _ in walk(u2.function_defs()[-1]) if n.kind == fe.K.VAR_DECL][0]
    assert ctype.declare(y2, 'v') == 's v'
