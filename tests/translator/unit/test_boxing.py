"""boxing: variables whose address may be retained move to the heap
environment."""
import pytest

from helpers import before, check, stage


def test_address_taken_across_call_is_boxed():
    out = stage('boxing', 'cps void g(int *);\ncps void f(void) { int x = 1; g(&x); }\n')
    assert 'struct f__env' in out and 'g(&cpc_env->x)' in out


def test_address_passed_to_no_retain_not_boxed():
    out = stage('boxing', '#include <string.h>\ncps void f(void) { int x; memset(&x, 0, sizeof x); '
                'cpc_yield(); x++; }\n')
    assert 'f__env' not in out


def test_array_live_across_call_is_boxed():
    out = stage('boxing', '#include <stdio.h>\ncps void f(void) { char b[8] = "hi"; cpc_yield(); '
                'puts(b); }\n')
    assert 'char b[8];' in out and 'puts(cpc_env->b)' in out


def test_boxed_array_in_macro_argument_rewritten_where_written():
    src = ('#define CHECK(c) do { if (c) (void)0; } while (0)\n'
           'int memcmp(const void *, const void *, unsigned long);\n'
           'cps void f(void) { char buf[4]; buf[0] = 0; cpc_yield(); CHECK(memcmp(buf, "a", 1) == 0); }\n')
    out = stage('boxing', src)
    assert 'CHECK(memcmp(cpc_env->buf, "a", 1) == 0)' in out


def test_array_element_address_kept_across_call_boxes_the_array():
    for expr in ('&a[1]', '&a[1][0]', '&s.v[1]'):
        src = ('struct T { int v[2]; };\ncps int id(int);\n'
               'cps int f(void) { int a[2][1] = {{1}, {2}}; struct T s = {{1, 2}}; '
               'int *p = %s; int r = id(1); return *p + r; }\n' % expr)
        out = stage('boxing', src)
        name = 's' if 's.' in expr else 'a'
        assert 'cpc_env->%s' % name in out, expr


def test_check_finds_a_retained_address_before_boxing():
    u, ctx = before('boxing', 'cps void g(int *);\ncps void f(void) {\n  int x = 1;\n  g(&x);\n}\n')
    assert check('boxing', u, ctx) == [
        '`x` of cps function `f` is in scope at a cps call but its address may be retained '
        '(or it is an array live across the call)']


def test_compound_literal_whose_member_address_is_kept_is_boxed():
    out = stage('boxing', 'struct q { int a, b; };\n'
                'cps int f(void) { int *p = &(struct q){ 7, 8 }.b; cpc_yield(); return *p; }\n')
    assert 'struct f__env' in out and 'cpc_env->' in out, out


def test_compound_literal_member_read_at_once_is_not_boxed():
    out = stage('boxing', 'struct q { int a, b; };\n'
                'cps int f(void) { int v = (struct q){ 7, 8 }.b; cpc_yield(); return v; }\n')
    assert 'f__env' not in out, out

