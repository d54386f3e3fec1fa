"""emit/split.py: which cps calls need a resume point and which are tail
calls."""
from cpc.analysis.cfg import Cfg
from cpc.analysis.func import func
from cpc.emit.split import split
from helpers import before

DECLS = 'cps int g(int);\ncps long l(int);\ncps void w(void);\n'


def sites_of(src):
    """[(call, index or 'tail')] of the last function of src, as the emitter receives it."""
    u, _ = before('emit', DECLS + src)
    f = func(u, u.function_defs()[-1])
    cfg = Cfg(f)
    split(f, cfg)
    return [(u.src(s.call), 'tail' if s.tail else s.index)
            for s in sorted(cfg.sites, key=lambda s: s.call.extent.start.offset)]


def test_a_return_of_a_call_of_the_same_result_type_is_a_tail_call():
    assert sites_of('cps int f(int a) { int x = g(a); return g(x); }\n') == \
        [('g(a)', 1), ('g(x)', 'tail')]


def test_a_return_converting_the_result_resumes():
    assert sites_of('cps int f(int a) { return l(a); }\n') == [('l(a)', 1)]


def test_in_a_void_function_a_call_that_reaches_the_end_is_a_tail_call():
    assert sites_of('cps void f(int a) { if (a) { w(); } else { g(a); a++; } w(); }\n') == \
        [('w()', 1), ('g(a)', 2), ('w()', 'tail')]
