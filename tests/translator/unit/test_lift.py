"""emit/lift.py: what each resume point saves: the variables live after
the call, possibly initialised at it and in scope."""
from cpc.analysis.cfg import Cfg
from cpc.analysis.func import func
from cpc.emit.lift import Lifting
from cpc.emit.split import split
from helpers import before

DECLS = 'cps int g(int);\ncps void w(void);\n'


def saved(src):
    """{resume index: [saved variable]} of the last function of src."""
    u, _ = before('emit', DECLS + src)
    f = func(u, u.function_defs()[-1])
    cfg = Cfg(f)
    lift = Lifting(f, cfg)
    return {s.index: [v.name for v in lift.frame_vars(s)] for s in split(f, cfg)}


def test_dead_and_uninitialised_variables_are_not_saved():
    assert saved('cps int f(int a) {\n'
                 '    int dead = a, later, kept = 2;\n'
                 '    w();\n'
                 '    later = 1;\n'
                 '    w();\n'
                 '    return kept + later;\n'
                 '}\n') == {1: ['kept'], 2: ['later', 'kept']}


def test_a_variable_assigned_in_the_call_s_arguments_is_saved():
    assert saved('cps int f(void) {\n    int i;\n    g(i = 1);\n    return i;\n}\n') == {1: ['i']}


def test_a_variable_is_saved_where_it_is_live_and_in_scope():
    assert saved('cps int f(int a) {\n'
                 '    int x = a;\n'
                 '    { int y = x; w(); x = y; }\n'
                 '    w();\n'
                 '    return x;\n'
                 '}\n') == {1: ['y'], 2: ['x']}
