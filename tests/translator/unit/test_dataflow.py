"""analysis/dataflow.py: liveness and possibly-initialised over the control
flow graph, and what a function assigns."""
from cpc.analysis.cfg import Cfg
from cpc.analysis.dataflow import (
    assigned_anywhere, liveness, possibly_initialised, postorder, read_before_written)
from helpers import funcs

DECLS = 'cps int g(int);\ncps void w(void);\nint h(int);\n'


def analysed(body, params='int a, int b'):
    u, fs = funcs(DECLS + 'cps int f(%s) {\n%s\n}\n' % (params, body))
    f = fs['f']
    cfg = Cfg(f)
    names = {v.key: v.name for v in f.vars.values()}
    return f, cfg, (lambda keys: sorted(names[k] for k in keys if k in names))


def test_live_after_a_call_are_the_variables_read_later_before_written():
    f, cfg, names = analysed('int x = a, y = b, z = 1;\n'
                             'w();\n'
                             'y = 2;\n'
                             'return x + y + h(z);')
    live_in, _ = liveness(cfg)
    assert names(live_in[cfg.sites[0].resume_node.id]) == ['x', 'z']


def test_an_assignment_in_a_loop_condition_kills_the_old_value():
    f, cfg, names = analysed('int x = a;\n'
                             'w();\n'
                             'while ((x = h(b)) > 0) b--;\n'
                             'return x;')
    live_in, _ = liveness(cfg)
    assert names(live_in[cfg.sites[0].resume_node.id]) == ['b']


def test_possibly_initialised_at_a_call_is_what_some_path_assigned():
    f, cfg, names = analysed('int x, y, z;\n'
                             'if (a) x = 1; else y = 2;\n'
                             'w();\n'
                             'z = 3;\n'
                             'return x + y + z;')
    _, init_out = possibly_initialised(cfg)
    assert names(init_out[cfg.sites[0].call_node.id]) == ['a', 'b', 'x', 'y']


def test_assigned_anywhere_leaves_out_the_parameters_the_body_never_writes():
    f, cfg, names = analysed('int x = a;\nb++;\nw();\nreturn x + b;')
    assert names(assigned_anywhere(cfg)) == ['b', 'x']


def test_read_before_written_in_a_statement():
    u, fs = funcs(DECLS + 'cps int f(int a, int b) {\n'
                  '    int x = 0;\n'
                  '    { b = x + 1; x = a; }\n'
                  '    return x;\n}\n')
    f = fs['f']
    block = list(f.body.get_children())[1]
    names = {v.key: v.name for v in f.vars.values()}
    assert sorted(names[k] for k in read_before_written(f, block)) == ['a', 'x']


def test_postorder_visits_every_node_once_successors_first():
    f, cfg, names = analysed('w();\nreturn a;')
    order = postorder(cfg)
    assert sorted(n.id for n in order) == list(range(len(cfg.nodes)))
    assert order[-1] is cfg.entry and order.index(cfg.exit) < order.index(cfg.entry)
