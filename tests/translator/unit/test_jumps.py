"""analysis/jumps.py: jumps that leave or enter a statement."""
from cpc.analysis.jumps import escapes, gotos_into
from cpc.analysis.syntax import K, walk
from helpers import funcs


def test_jumps_out_of_a_statement_are_reported_and_those_inside_it_are_not():
    u, fs = funcs('void f(int n) {\n'
                  '    for (;;) {\n'
                  '        switch (n) {\n'
                  '        case 1:\n'
                  '            { if (n) break; if (n > 2) continue; goto out;\n'
                  '              for (;;) break;\n'
                  '              mine: n--; if (n) goto mine; }\n'
                  '        }\n'
                  '    }\n'
                  'out:\n'
                  '    return;\n'
                  '}\n')
    block = [n for n, _ in walk(fs['f'].body)
             if n.kind == K.COMPOUND_STMT and u.src(n).startswith('{ if (n) break;')][0]
    errs, labels = escapes(u, block, 'the block')
    assert [(d.line, d.msg) for d in errs] == [
        (6, '`break` out of the block'), (6, '`continue` out of the block'),
        (6, '`goto out` out of the block')]
    assert labels == {'mine'}


def test_gotos_from_outside_into_a_statement_are_reported():
    u, fs = funcs('void f(int n) {\n'
                  '    if (n) goto in;\n'
                  '    { in: n++; }\n'
                  '}\n')
    block = [n for n, _ in walk(fs['f'].body) if n.kind == K.COMPOUND_STMT][1]
    assert [(d.line, d.msg) for d in gotos_into(u, fs['f'].body, block, {'in'}, 'the block')] \
        == [(3, '`goto in` into the block')]
