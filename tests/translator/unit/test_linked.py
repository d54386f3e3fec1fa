"""linked: cpc_linked, cpc_detached, cpc_attached become cpc_link calls.
Its exact results on characteristic cases: expected/linked/ (test_pass_outputs.py)."""
from helpers import before, check, stage


def test_linked_statement_links_back_on_return():
    out = stage('linked', 'cps int f(int n) { cpc_detached { if (n) return n + 1; } return 0; }\n')
    assert out == ('cps int f(int n) { { cpc_sched *cpc_prev_1 = cpc_link(cpc_default_threadpool); '
                   '{ if (n) { int cpc_lret_1 = n + 1; cpc_link(cpc_prev_1); return cpc_lret_1; } } '
                   'cpc_link(cpc_prev_1); } return 0; }\n')


def test_check_finds_a_linked_statement_before_the_pass():
    u, ctx = before('linked', 'cps void f(void) {\n  cpc_detached { cpc_yield(); }\n}\n')
    assert check('linked', u, ctx) == ['a linked statement remains in `f`']

