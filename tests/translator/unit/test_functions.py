"""emit/functions.py: a cps function as the emitter writes it: its call
sites, resume points, returns and tail calls, and the scopes it refuses."""
import re

import pytest

from cpc import ctype
from cpc import frontend as fe
from helpers import emit

DECLS = 'cps int g(int);\n'


def body_lines(src):
    """The lines of the generated C from the one after `#line 4` (the body's
    first line of statements)."""
    out = emit(DECLS + src)
    lines = out.split('\n')
    return lines[lines.index('#line 4 "t.cpc"') + 1:]


def test_a_call_site_returns_the_call_and_resumes_at_its_label():
    lines = body_lines('cps int f(int a) {\n    int x = g(a);\n    return x + 1;\n}\n')
    assert lines[:3] == [
        '    int x; { /* int x = g(a); */ return g__cps(cpc_k, a); f__resumed_1: CPC_RESUMED(); '
        'cpc_f = CPC_TOP(cpc_k, struct f__frame); CPC_RESULT(x, cpc_f); }',
        '    { int cpc_ret = x + 1; CPC_DROP(cpc_k, struct f__frame); '
        'return cpc_return_reserved(cpc_k, &cpc_ret, sizeof cpc_ret); }',
        '    CPC_DROP(cpc_k, struct f__frame); return cpc_resume_caller(cpc_k); }']


def test_a_tail_call_returns_the_callee_s_entry_without_a_frame():
    out = emit(DECLS + 'cps int f(int a) {\n    return g(a + 1);\n}\n')
    assert body_lines('cps int f(int a) {\n    return g(a + 1);\n}\n')[:2] == \
        ['    {  return g__cps(cpc_k, a + 1); }', '    return cpc_resume_caller(cpc_k); }']
    assert 'struct f__frame' not in out


def test_a_resume_point_in_the_scope_of_a_variably_modified_type_is_refused():
    with pytest.raises(fe.Diags) as e:
        emit('cps int f(int n) {\n    typedef int row[n];\n    cpc_yield();\n'
             '    return sizeof(row) > 0;\n}\n')
    assert [(d.line, d.msg) for d in e.value.diags] == [
        (4, '`row` has a variably modified type and is in scope at this cps call: a thread '
            'cannot resume inside the scope of a variable-length array or of a type derived '
            'from one; end the scope (a block) before the call')]


def body_heads(out, name):
    """The prototype and the definition's head of `name`'s body."""
    return [l for l in out.split('\n')
            if l.startswith('static ') and ' cpc_continuation *%s(' % name in l]


def test_a_small_body_is_inline_so_that_its_resume_functions_run_it_without_a_call():
    out = emit(DECLS + 'cps int f(int a) {\n    int x = g(a);\n    return x + g(x);\n}\n')
    heads = body_heads(out, 'f')
    assert len(heads) == 2 and all(h.startswith('static inline ') for h in heads), heads


def test_a_body_whose_copies_exceed_the_budget_is_compiled_once():
    # each resume function could get a copy of an inline body: 40 resume
    # points times a body of 40 lines is over the budget
    calls = ''.join('    x += g(x + %d); /* %s */\n' % (i, 'padding ' * 4) for i in range(40))
    out = emit(DECLS + 'cps int f(int a) {\n    int x = a;\n' + calls + '    return x;\n}\n')
    heads = body_heads(out, 'f')
    assert len(heads) == 2 and all(h.startswith('static __attribute__((noinline)) ')
                                   for h in heads), heads
    # and its dispatch function calls it
    assert 'f__dispatch(cpc_continuation *cpc_k) { return f(cpc_k, (int)CPC_TOP(' in out


def test_whether_a_body_is_inline_does_not_depend_on_the_length_of_its_file_s_path():
    # a macro holding cps calls leaves a #line, naming the file, on every
    # line of the body that the emitter reads: the body's size is its
    # code's, whatever the path (bodies of 1 to 12 such lines span the
    # budget's threshold)
    src = DECLS + '#define TWICE(x) (g(x) + g(x))\n' + ''.join(
        'cps int f%d(int a) {\n    int x = a;\n%s    return x;\n}\n'
        % (n, '    x += TWICE(x);\n' * n) for n in range(1, 13))
    short_path, long_path = 't.cpc', '/tmp/' + 'd' * 200 + '/t.cpc'
    outs = [emit(src, path=p) for p in (short_path, long_path)]
    heads = [[h.split('cpc_continuation *')[0] for n in range(1, 13)
              for h in body_heads(out, 'f%d' % n)] for out in outs]
    assert heads[0] == heads[1]
    assert {h.split()[1] for h in heads[0]} == {'inline', '__attribute__((noinline))'}


def test_a_stable_frame_stores_its_dispatch_function_once_at_the_push():
    # more than 32 resume points: the frame's cpc_fn is f__dispatch from
    # the push on, and each call site stores its resume point alone
    calls = ''.join('    x += g(x + %d);\n' % i for i in range(40))
    out = emit(DECLS + 'cps int f(int a) {\n    int x = a;\n' + calls + '    return x;\n}\n')
    assert re.findall(r'cpc_f->cpc_fn = (\w+);', out) == ['f__dispatch'], out
    assert out.index('cpc_f = CPC_PUSH_RESERVED(cpc_k, struct f__frame);') < \
        out.index('cpc_f->cpc_fn = f__dispatch;') < out.index('return g__cps(')
    assert len(re.findall(r'cpc_f->cpc_point = \d+; return g__cps\(', out)) == 40, out


def test_a_leaf_s_entry_spends_no_budget_and_keeps_its_bounce():
    # no cps call, tail or not: the room check alone; a function with one
    # spends the budget
    out = emit('cps int leaf(int a) { return a + 1; }\n'
               'cps int caller(int a) { return leaf(a) + 1; }\n')
    assert 'if (!cpc_enter_leaf(cpc_k, sizeof(union leaf__reserve))) return cpc_defer1(' in out
    assert 'if (!cpc_enter(cpc_k, sizeof(union caller__reserve))) return cpc_defer1(' in out
    assert re.search(r'static CPC_UNGUARDED CPC_COLD CPC_KEPT CPC_CPS_FN cpc_continuation '
                     r'\*leaf__bounce\(', out), out
    assert not re.search(r'CPC_KEPT CPC_CPS_FN cpc_continuation \*caller__bounce\(', out), out


def test_integer_and_pointer_parameters_defer_through_the_runtime_s_shared_path():
    # at most four, each converted to a word in its register's place, the
    # description last; no f__defer for the C compiler to compile
    out = emit('enum e { A, B };\n'
               'cps int f(signed char c, unsigned short u, _Bool b, const int *p) '
               '{ cpc_yield(); return c + u + b + *p; }\n'
               'cps int g(enum e x, long n[4]) { cpc_yield(); return x + n[0]; }\n'
               'cps void h(void) { cpc_yield(); }\n')
    assert 'return cpc_defer4(cpc_k, (cpc_word)(c), (cpc_word)(u), (cpc_word)(b), ' \
        '(cpc_word)(__UINTPTR_TYPE__)(p), &f__deferral);' in out, out
    assert 'return cpc_defer2(cpc_k, (cpc_word)(x), (cpc_word)(__UINTPTR_TYPE__)(n), ' \
        '&g__deferral);' in out, out
    assert 'return cpc_defer0(cpc_k, &h__deferral);' in out, out
    assert re.search(r'static const cpc_deferral f__deferral = \{ f__bounce, '
                     r'sizeof\(union f__reserve\), sizeof\(struct f__args\), 4, '
                     r'\{ __builtin_offsetof\(struct f__args, c\), .*'
                     r'__builtin_offsetof\(struct f__args, p\) \}, '
                     r'\{ sizeof\(\(\(struct f__args \*\)0\)->c\), ', out), out
    for name in ('f', 'g', 'h'):
        assert '%s__defer(' % name not in out
        assert '%s__bounce(cpc_continuation *cpc_k)' % name in out


@pytest.mark.parametrize('params', [
    'int a, int b, int c, int d, int e',        # more than four
    'double x',                                 # not an integer
    'struct s v',                               # an aggregate
    '__int128 w',                               # wider than a word
    '_Atomic int a',                            # atomic
])
def test_other_parameters_keep_a_defer_of_their_own(params):
    out = emit('struct s { int a; };\n'
               'cps int f(%s) { cpc_yield(); return 0; }\n' % params)
    assert 'cpc_defer' not in out.replace('f__defer', ''), out
    assert re.search(r'return f__defer\(cpc_k[,)]', out), out
    assert 'static CPC_UNGUARDED CPC_COLD cpc_continuation *f__defer(' in out, out


def test_code_attributes_keep_a_defer_of_their_own():
    # (the deferred path takes the function's target; the runtime's has none)
    out = emit('__attribute__((target("avx2"))) cps int f(int a) { cpc_yield(); return a; }\n')
    assert 'return f__defer(cpc_k, a);' in out, out
    assert 'f__deferral' not in out


def test_call_sites_write_the_texts_of_a_type_once_per_function(monkeypatch):
    # (a large function declares the same few types at thousands of call
    # sites: the variable a call declares, the temporary of a converted
    # result; each written once, then with the site's name)
    calls = []
    declare = ctype.declare
    declare_rvalue = ctype.declare_rvalue

    def counted(t, name, *a, **k):
        calls.append(name)
        return declare(t, name, *a, **k)

    def counted_rvalue(t, name, *a, **k):
        calls.append(name)
        return declare_rvalue(t, name, *a, **k)
    monkeypatch.setattr(ctype, 'declare', counted)
    monkeypatch.setattr(ctype, 'declare_rvalue', counted_rvalue)
    n = 60
    sites = ''.join('    int x%d = g(a + %d); s += x%d;\n    long y%d = g(s); s += y%d;\n' %
                    (i, i, i, i, i) for i in range(n))
    out = emit(DECLS + 'cps int f(int a) {\n    long s = 0;\n' + sites + '    return s;\n}\n')
    assert 'int x%d; { /* int x%d = g(a + %d); */' % (n - 1, n - 1, n - 1) in out
    assert 'long y%d; { /* long y%d = g(s); */ int cpc_r;' % (n - 1, n - 1) in out
    assert len(calls) < n // 2, calls
