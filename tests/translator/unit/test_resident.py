"""emit/resident.py: the uses of frame-resident variables (--dataflow=frame)
rewritten to read and write the frame in place."""
from cpc.analysis.cfg import Cfg
from cpc.analysis.func import func
from cpc.emit import resident
from cpc.emit.declarations import Declarations, EditList
from cpc import rewrite as rw
from helpers import before, emit

DECLS = 'cps int g(int);\n'


def emitter_input(src):
    u, _ = before('emit', DECLS + src)
    return Declarations(u), func(u, u.function_defs()[-1])


def test_variables_sharing_a_for_header_are_found():
    em, f = emitter_input('cps int f(int n) { int s = 0;\n'
                          '    for (int i = 0, j = n; i < j; i++) s += g(i);\n'
                          '    for (int k = 0; k < n; k++) s += g(k);\n'
                          '    return s; }\n')
    names = sorted(f.vars[k].name for k in resident.for_headers_shared(f))
    assert names == ['i', 'j']


def test_references_in_sizeof_and_declarations_are_rewritten():
    em, f = emitter_input('cps int f(int n) {\n'
                          '    int s = n, t;\n'
                          '    g(1);\n'
                          '    return s + (int)sizeof s;\n'
                          '}\n')
    keys = {k: v for k, v in f.vars.items() if v.name in ('n', 's')}
    edits = resident.uses(em, f, Cfg(f), keys, EditList())
    body = f.body
    text = rw.rebuild(em.u, body.extent.start.offset, body.extent.end.offset,
                      rw.outermost(edits))
    assert 'cpc_f->s = cpc_f->n; int t;' in text
    assert 'return cpc_f->s + (int)sizeof cpc_f->s;' in text


def test_a_for_header_with_several_variables_compiles_lifted():
    out = emit(DECLS + 'cps int f(int n) { int s = 0;\n'
               '    for (int i = 0, j = n; i < j; i++) s += g(i);\n'
               '    return s; }\n', dataflow='frame')
    assert 'for (int i = 0, j = n; i < j; i++)' in out
    assert 'i = cpc_f->i; j = cpc_f->j;' in out and 'cpc_f->s += cpc_t1' in out
