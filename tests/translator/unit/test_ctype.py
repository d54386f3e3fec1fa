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
