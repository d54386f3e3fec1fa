"""jumps (analysis/jumps.py): jumps across the boundary of a spawned or
linked statement, which neither construct allows."""

from cpc import frontend as fe
from cpc.analysis import jumps
from helpers import HDR, PATH
from cpc.analysis.jumps import gotos_into
from cpc.analysis.syntax import K, walk
from helpers import funcs




def statement_in_f(body):
    """(unit, f's body, the statement marked by the `do { ... } while (0)` in
    `body`)."""
    u = fe.parse((HDR + 'void g(int);\nvoid f(int n) {\n' + body + '\n}\n').encode(), PATH)
    f = [c for c in u.function_defs() if c.spelling == 'f'][0]
    fbody = [c for c in f.get_children() if c.kind == K.COMPOUND_STMT][0]
    do = [c for c in fbody.walk_preorder() if c.kind == K.DO_STMT][0]
    stmt = [c for c in do.get_children() if c.kind == K.COMPOUND_STMT][0]
    return u, fbody, stmt


def escapes(body):
    u, _, stmt = statement_in_f(body)
    errs, labels = jumps.escapes(u, stmt, 'the statement')
    return [(d.line, d.msg) for d in errs], sorted(labels)


def test_break_and_continue_inside_their_own_loop_stay_inside():
    assert escapes('do { for (;;) { if (n) break; continue; } '
                   'switch (n) { case 1: break; default: ; } } while (0);') == ([], [])


def test_break_continue_and_case_out_of_the_statement_are_reported():
    # (the do-while stands for the construct: its body is what is checked)
    assert escapes('switch (n) { case 0:\nwhile (n) do {\nbreak;\ncontinue;\ncase 1: ;\n'
                   '} while (0); }')[0] == [
        (6, '`break` out of the statement'), (7, '`continue` out of the statement'),
        (8, '`case` label of an enclosing switch inside the statement')]


def test_goto_to_a_label_outside_is_reported_and_inside_is_not():
    assert escapes('do {\ngoto in;\nin: g(1);\ngoto out;\n} while (0);\nout: ;') == (
        [(7, '`goto out` out of the statement')], ['in'])


def test_a_computed_goto_inside_is_reported():
    assert escapes('do {\nvoid *p = &&l;\ngoto *p;\nl: ;\n} while (0);')[0] == [
        (6, 'computed `goto` inside the statement')]


def test_a_goto_from_outside_to_a_label_inside_is_reported():
    u, fbody, stmt = statement_in_f('goto in;\ndo {\nin: g(1);\n} while (0);\ngoto after;\n'
                                    'after: ;')
    _, labels = jumps.escapes(u, stmt, 'the statement')
    assert [(d.line, d.msg) for d in jumps.gotos_into(u, fbody, stmt, labels,
                                                      'the statement')] == [
        (4, '`goto in` into the statement')]


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
    errs, labels = jumps.escapes(u, block, 'the block')
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
