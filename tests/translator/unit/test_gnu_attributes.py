"""analysis/gnu_attributes.py: the attributes and annotations written on
declarations."""
from cpc.analysis.gnu_attributes import (
    attributes, attributes_written, cleanup_function, code_attributes_text, has_annotation,
    is_need_cont_call)
from cpc.analysis.syntax import K, walk
from helpers import funcs


def test_attributes_as_clang_reads_them_through_macros():
    u, fs = funcs('#define WEAK __attribute__((weak))\n'
                  'WEAK __attribute__((visibility("hidden"), section("s1"))) int f(void) '
                  '{ return 0; }\n')
    assert attributes(fs['f'].c) == [('weak', 'weak'), ('visibility', 'visibility("hidden")'),
                                     ('section', 'section ( "s1" )')]


def test_attributes_written_include_those_clang_ignores():
    assert attributes_written(b'__attribute__((optimize("O3"), noinline)) '
                              b'__attribute((__cold__)) int f(void)') == \
        [('optimize', 'optimize ( "O3" )'), ('noinline', 'noinline'), ('cold', '__cold__')]


def test_code_attributes_are_gathered_from_every_declaration_in_the_file():
    u, fs = funcs('__attribute__((optimize("wrapv"))) int f(int x);\n'
                  '__attribute__((target("sse4.2"), cold)) int f(int x) { return x; }\n')
    assert code_attributes_text(u, fs['f'].c) == \
        '__attribute__((target ( "sse4.2" ), cold, optimize ( "wrapv" ))) '
    assert code_attributes_text(u, fs['f'].c, frequency=False) == \
        '__attribute__((target ( "sse4.2" ), optimize ( "wrapv" ))) '


def test_annotations_and_need_cont_calls():
    u, fs = funcs('void n(cpc_continuation *c) __attribute__((annotate("cpc_need_cont")));\n'
                  'void plain(void);\n'
                  'void f(void) { n(0); plain(); }\n')
    calls = [n for n, _ in walk(fs['f'].body) if n.kind == K.CALL_EXPR]
    assert [is_need_cont_call(c) for c in calls] == [True, False]
    assert has_annotation(None, 'cpc_need_cont') is False


def test_the_cleanup_function_of_a_variable():
    u, fs = funcs('void done(int *p);\n'
                  'void f(void) { int a __attribute__((cleanup(done))) = 1; '
                  'int b __attribute__((unused)) = 2; (void)a; (void)b; }\n')
    decls = [n for n, _ in walk(fs['f'].body) if n.kind == K.VAR_DECL]
    got = [(d.spelling, [cleanup_function(u, a) for a in d.get_children()
                         if a.kind.is_attribute()]) for d in decls]
    assert got == [('a', ['done']), ('b', [None])]
