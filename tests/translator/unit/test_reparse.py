"""reparse.py: parses of the main file alone list what full parses list."""
from cpc import cursors
from cpc import frontend as fe
from cpc.reparse import Reparser


# A file whose preamble (the directives before its first line of code)
# includes headers, and code after it that includes one more.
PREAMBLE_SRC = ('#include <cpc/cpc_runtime.h>\n#include <stdio.h>\n#define TWICE(x) ((x) * 2)\n'
                'cps int g(int);\nint counter;\n#include <string.h>\n'
                'cps int f(int a) { return TWICE(g(a)) + (int)strlen("ab"); }\n')


def _listing(u):
    return [(c.kind.name, c.spelling, u.in_main_file(c),
             c.extent.start.offset if u.in_main_file(c) else None) for c in u.top()]


def _on_disk(tmp_path):
    # (libclang makes a preamble for a file on disk only)
    path = str(tmp_path / 'p.cpc')
    with open(path, 'w') as f:
        f.write(PREAMBLE_SRC)
    return path


def test_a_parse_of_the_main_file_alone_lists_what_a_full_parse_lists(tmp_path):
    path = _on_disk(tmp_path)
    base = fe.parse(PREAMBLE_SRC.encode(), path)
    reparser = Reparser(base, [])
    for edited in (PREAMBLE_SRC.replace('return', 'int b = 1; return'),
                   PREAMBLE_SRC.replace('cps int g(int);', 'cps int g(int);\nint more;')):
        u = reparser.parse(edited.encode(), path)
        # (the headers are not listed again: they are the preamble's)
        assert len(list(cursors.adopt(u.tu.cursor).children)) < len(u.top()) / 2
        full = fe.parse(edited.encode(), path)
        assert _listing(u) == _listing(full)
        assert [c.spelling for c in u.main_top()] == [c.spelling for c in full.main_top()]
        # the macro of the preamble is read in the main file's text
        [twice] = [c for c in u.top() if c.spelling == 'TWICE' and
                   c.kind == fe.K.MACRO_DEFINITION]
        assert u.spelled(twice) == b'TWICE(x) ((x) * 2)'


def test_a_parse_in_place_forgets_the_facts_of_the_parse_before(tmp_path):
    # (the analyses' facts are keyed by cursor bytes, which the new parse
    # reuses for other declarations)
    from cpc.analysis.syntax import decl_fact
    path = _on_disk(tmp_path)
    base = fe.parse(PREAMBLE_SRC.encode(), path)
    reparser = Reparser(base, [])
    names = ['f%d' % i for i in range(40)]
    for text in (PREAMBLE_SRC + ''.join('int %s(void) { return 1; }\n' % n for n in names),
                 PREAMBLE_SRC + ''.join('int %s(void) { return 2; }\n' % n
                                        for n in reversed(names))):
        u = reparser.parse(text.encode(), path)
        for c in u.function_defs():
            assert decl_fact(c, 'name', lambda d: d.spelling) == c.spelling


def test_a_directive_written_where_the_code_starts_gets_a_full_parse(tmp_path):
    # (it joins the preamble, whose entities are then not base's)
    path = _on_disk(tmp_path)
    base = fe.parse(PREAMBLE_SRC.encode(), path)
    reparser = Reparser(base, [])
    first = PREAMBLE_SRC.replace('return', 'int b = 1; return')
    assert reparser.parse(first.encode(), path).lender is reparser
    edited = first.replace('cps int g(int);', '#define EXTRA 1\ncps int g(int);')
    u = reparser.parse(edited.encode(), path)
    assert u.lender is None
    assert _listing(u) == _listing(fe.parse(edited.encode(), path))


def test_a_file_whose_preamble_defines_a_macro_is_parsed_in_place():
    # (QEMU's block.c: `#define NOT_DONE 0x7fffffff` before its first line
    # of code; no cursor whose tokens the translator reads starts in it)
    assert Reparser.worth(fe.parse(PREAMBLE_SRC.encode(), 'p.cpc'))


def test_a_file_whose_preamble_macro_spells_what_is_tokenized_is_parsed_whole():
    # (libclang gives no tokens for a range from the preamble into the code:
    # an attribute or a sizeof spelt by such a macro would read as none)
    for body in ('__attribute__((weak))', '__attribute((unused))', 'sizeof(int)',
                 '_Alignof(long)', '_Alignas(16)', '_Noreturn', '__asm__("x")',
                 'x ## y', '[[gnu::unused]]', 'weak', '(x) + other'):
        src = PREAMBLE_SRC.replace('((x) * 2)', body).replace('TWICE(g(a))', 'g(a)')
        assert not Reparser.worth(fe.parse(src.encode(), 'p.cpc')), body


def test_a_preamble_macro_spelling_an_attribute_name_gets_full_parses(tmp_path):
    # `#define W unused` used as `__attribute__((W))`: the attribute's range
    # starts in the macro's body, which a parse in place cannot tokenize
    src = PREAMBLE_SRC.replace('#define TWICE(x) ((x) * 2)\n', '#define W unused\n') \
        .replace('TWICE(g(a))', 'g(a)').replace('int counter;', 'int counter __attribute__((W));')
    path = str(tmp_path / 'p.cpc')
    with open(path, 'w') as f:
        f.write(src)
    assert not Reparser.possible(fe.parse(src.encode(), path))
    # what it would give: no tokens where a full parse reads `unused`
    edited = src.replace('return', 'int b = 1; return').encode()
    u = Reparser(fe.parse(src.encode(), path), []).parse(edited, path)
    [(_, in_place)] = _tokens_read(u)
    [(_, full)] = _tokens_read(fe.parse(edited, path))
    assert in_place == [] and full[0] == 'unused'


def _tokens_read(u):
    """The tokens of every attribute and sizeof-like operator of u's main
    file (what the translator asks libclang to tokenize)."""
    out = []

    def walk(n):
        if n.kind.is_attribute() or n.kind == fe.K.CXX_UNARY_EXPR:
            out.append((n.kind.name, [t.spelling for t in n.get_tokens()]))
        for k in cursors.kids(n):
            walk(k)
    for c in u.main_top():
        if not c.kind.is_preprocessing():
            walk(c)
    return out


def test_a_preamble_macro_allowed_in_place_spells_no_token_read(tmp_path):
    # the preamble's macros that a parse in place allows give the tokens a
    # full parse gives, and so does a header's macro spelling an attribute
    src = PREAMBLE_SRC.replace(
        '#define TWICE(x) ((x) * 2)\n',
        '#define TWICE(x) ((x) * 2)\n#define LIMIT 0x7fffffff\n#define UNUSED_P(x) x\n'
        '#define FIRST(a, ...) (a, __VA_ARGS__)\n') \
        .replace('int counter;', 'int counter __attribute__((unused)) = LIMIT;\n'
                 'int UNUSED_P(size) __attribute__((aligned(8))) = sizeof(long);')
    path = str(tmp_path / 'p.cpc')
    with open(path, 'w') as f:
        f.write(src)
    base = fe.parse(src.encode(), path)
    assert Reparser.worth(base)
    edited = src.replace('return', 'int b = (int)sizeof(TWICE(1)); return').encode()
    u = Reparser(base, []).parse(edited, path)
    assert u.lender is not None
    full = fe.parse(edited, path)
    assert _tokens_read(u) == _tokens_read(full)
    assert ('CXX_UNARY_EXPR', ['sizeof', '(', 'long', ')']) in _tokens_read(u)


def test_a_file_declaring_a_tag_in_a_result_type_is_parsed_whole():
    # (libclang does not list such a tag among the unit's own declarations)
    src = PREAMBLE_SRC.replace('#define TWICE(x) ((x) * 2)\n', '').replace('TWICE(g(a))', 'g(a)')
    assert Reparser.possible(fe.parse(src.encode(), 'p.cpc'))
    src += 'cps struct node *first(struct node *n) { return n; }\n'
    assert not Reparser.possible(fe.parse(src.encode(), 'p.cpc'))


def test_a_file_with_a_line_directive_before_its_code_is_parsed_whole(tmp_path):
    # (a header inlined at the top of the file: a parse in place would put
    # the code after the preamble in the main file, not in the header)
    src = PREAMBLE_SRC.replace('#define TWICE(x) ((x) * 2)\n', '#line 1 "inlined.h"\n') \
        .replace('TWICE(g(a))', 'g(a)')
    path = str(tmp_path / 'p.cpc')
    with open(path, 'w') as f:
        f.write(src)
    assert not Reparser.possible(fe.parse(src.encode(), path))
    assert Reparser.possible(fe.parse(src.replace('#line 1 "inlined.h"\n', '').encode(), path))
    # what it would give: the code's lines are the file's, not the header's
    base = fe.parse(src.encode(), path)
    edited = src.replace('return', 'int b = 1; return').encode()
    u = Reparser(base, []).parse(edited, path)
    [f] = [c for c in u.function_defs() if c.spelling == 'f']
    [full_f] = [c for c in fe.parse(edited, path).function_defs() if c.spelling == 'f']
    assert u.loc_of(f)[0] != u.loc_of(full_f)[0] == 'inlined.h'


def test_the_base_keeps_its_listing_and_drops_its_code_analyses(tmp_path):
    # (it lives as long as the translation: what the passes derived from its
    # functions would be gone through by every collection after it)
    from cpc.analysis.func import func
    path = _on_disk(tmp_path)
    base = fe.parse(PREAMBLE_SRC.encode(), path)
    [f] = [c for c in base.function_defs() if c.spelling == 'f']
    assert func(base, f).body is not None and 'children' in f.__dict__
    header = [c for c in base.top() if not base.in_main_file(c) and
              c.kind == fe.K.FUNCTION_DECL and c.spelling == 'strlen'][0]
    cursors.kids(header)
    reparser = Reparser(base, [])
    assert 'children' not in f.__dict__ and 'memo' not in f.__dict__
    assert f.__dict__['in_main_file'] and f.kind == fe.K.FUNCTION_DECL
    assert 'children' in header.__dict__        # (the parses in place list it)
    u = reparser.parse(PREAMBLE_SRC.replace('return', 'int b = 1; return').encode(), path)
    full = fe.parse(PREAMBLE_SRC.replace('return', 'int b = 1; return').encode(), path)
    assert _listing(u) == _listing(full)


def test_a_preamble_made_from_the_text_before_the_code_lists_what_a_full_parse_lists(tmp_path):
    # (the parse that makes the preamble is given the text up to the first
    # line of code only; here that line is in a conditional group the
    # preamble opens, and the code after it is that parse's no more)
    src = ('#include <cpc/cpc_runtime.h>\n#include <stdio.h>\n#ifndef NOT_DEFINED\n'
           'cps int g(int);\n#endif\ncps int f(int a) { return g(a) + 1; }\n')
    path = str(tmp_path / 'q.cpc')
    with open(path, 'w') as f:
        f.write(src)
    base = fe.parse(src.encode(), path)
    reparser = Reparser(base, [])
    assert reparser.preamble_only(src.encode()) == \
        src[:src.index('cps int g')].encode() + b'int cpc__preamble_end;\n'
    # (a directive an edit wrote where the code started joins the preamble)
    moved = src.replace('cps int g', '#line 4 "q.cpc" /* a\n comment */\ncps int g')
    assert reparser.preamble_only(moved.encode()) == \
        moved[:moved.index('cps int g')].encode() + b'int cpc__preamble_end;\n'
    edited = src.replace('+ 1', '+ 2')
    u = reparser.parse(edited.encode(), path)
    assert u.lender is reparser         # (parsed in place, not whole)
    full = fe.parse(edited.encode(), path)
    assert _listing(u) == _listing(full)
