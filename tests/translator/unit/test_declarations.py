"""emit/declarations.py: what the emitter writes outside the bodies of cps
functions (prototypes of entry points, the continuation of cpc_need_cont
functions, cps functions as values, spawn sites) and its helpers."""
import pytest

from cpc.emit.declarations import Declarations, EditList, comment_text
from cpc import frontend as fe
from helpers import HDR, emit


def translated(src):
    """The generated C after the runtime header's line."""
    out = emit(src)
    return out[out.index(HDR) + len(HDR):]


def test_cps_declarations_become_prototypes_of_their_entry_points():
    assert translated('cps int g(int a, char *b);\nstatic cps void h(void);\n') == \
        'cpc_continuation *g__cps(cpc_continuation *cpc_k, int a, char *b);\n' \
        'static cpc_continuation *h__cps(cpc_continuation *cpc_k);\n'


def test_a_need_cont_function_takes_the_continuation_first():
    assert translated('void n(cpc_continuation *k) __attribute__((annotate("cpc_need_cont")));\n') \
        == 'void n(cpc_continuation *cpc_k, cpc_continuation *k) ' \
           '__attribute__((annotate("cpc_need_cont")));\n'


def test_a_cps_function_used_as_a_value_is_its_entry_converted_to_the_declared_type():
    assert translated('cps int g(int a);\ncps int (*p)(int) = g;\n') == \
        'cpc_continuation *g__cps(cpc_continuation *cpc_k, int a);\n' \
        'cps int (*p)(int) = ((int (*)(int))(void (*)(void))g__cps);\n'


def test_the_entry_takes_the_symbol_attributes_and_refuses_an_alias():
    assert translated('__attribute__((weak, noinline)) cps void w(void);\n') == \
        '__attribute__((weak, noinline)) cpc_continuation *w__cps(cpc_continuation *cpc_k);\n'
    with pytest.raises(fe.Diags) as e:
        emit('cps void t(void) { }\n__attribute__((alias("t__cps"))) cps void a(void);\n')
    assert [d.msg for d in e.value.diags] == \
        ['the `alias` attribute is not supported on cps function `a`']


def test_edit_lists_tell_the_edits_within_a_range():
    edits = EditList([(10, 12, 'a'), (0, 5, 'b'), (3, 4, 'c')])
    edits.append((4, 9, 'd'))
    assert sorted(edits.within(2, 10)) == [(3, 4, 'c'), (4, 9, 'd')]


def test_comment_text_is_one_line_safe_in_a_comment():
    assert comment_text('x = f(a) /* c */\n  + g();') == 'x = f(a) / * c * / + g();'
    assert comment_text('#line 3 "t.cpc"\ny = 1;') == 'y = 1;'
    assert comment_text('v' * 80) == 'v' * 69 + '...'


class Span:
    def __init__(self, a, b):
        self.start, self.end = type('At', (), {'offset': a}), type('At', (), {'offset': b})


class Tag:
    def __init__(self, name, a, b):
        self.name, self.extent = name, Span(a, b)


class CountedTags(list):
    """The file's tags, counting the passes over all of them."""
    passes = 0

    def __iter__(self):
        CountedTags.passes += 1
        return super().__iter__()


def test_the_tags_of_each_declaration_are_found_without_a_pass_over_the_files_tags():
    # (a file of thousands of functions and tags: one pass over the tags per
    # function was quadratic)
    d = Declarations.__new__(Declarations)
    d.u = type('U', (), {'src': staticmethod(lambda t: 'struct ' + t.name)})
    d._tag_spans = None
    d.tags = CountedTags(Tag('t%d' % i, 100 * i, 100 * i + 20) for i in range(50))
    CountedTags.passes = 0
    assert d.tags_declared_in(1000, 1119) == 'struct t10; '
    assert d.tags_declared_in(1000, 1019) == ''
    assert d.tags_declared_in(1000, 1150) == 'struct t10; struct t11; '
    assert d.tags_declared_in(1001, 1150) == 'struct t11; '
    for i in range(50):
        assert d.tags_declared_in(100 * i, 100 * i + 50) == 'struct t%d; ' % i
    assert CountedTags.passes <= 1
