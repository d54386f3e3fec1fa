"""clex: the raw lexer that reads a file before Clang can parse it."""

from cpc import clex


def toks(text):
    return [(t.kind, t.text) for t in clex.tokens(text)]


def test_comments_and_blanks_make_no_tokens():
    assert toks(b'a /* { */ b // }\n  \\\n c') == [('id', b'a'), ('id', b'b'), ('id', b'c')]


def test_a_literal_with_its_prefix_is_one_token():
    assert toks(b'u8"a{b" L\'}\' "x\\"y"') == [('str', b'u8"a{b"'), ('chr', b"L'}'"),
                                              ('str', b'"x\\"y"')]


def test_a_directive_with_its_continuations_and_comments_is_one_token():
    text = b'  # define F(x) { \\\n  x /* \n } */ }\nint'
    assert toks(text) == [('pp', b'# define F(x) { \\\n  x /* \n } */ }'), ('id', b'int')]


def test_a_hash_after_a_token_on_its_line_is_not_a_directive():
    assert toks(b'a # b') == [('id', b'a'), ('punct', b'#'), ('id', b'b')]


def test_each_token_has_its_exact_byte_range():
    text = b'int  x=1.5e+3;'
    assert [(t.text, text[t.start:t.end]) for t in clex.tokens(text)] == \
        [(b'int', b'int'), (b'x', b'x'), (b'=', b'='), (b'1.5e+3', b'1.5e+3'), (b';', b';')]


def test_multi_character_punctuators_are_one_token():
    assert [t for _, t in toks(b'a->b <<= c ... ##')] == [b'a', b'->', b'b', b'<<=', b'c',
                                                           b'...', b'##']


def test_an_unterminated_comment_runs_to_the_end():
    assert toks(b'a /* b c') == [('id', b'a')]


def test_tokens_with_their_kinds_and_byte_ranges():
    text = b'int x = 0x1f; /* c { */ s = "a{" L\'b\';\n#define M(a) \\\n  { a }\nf(x);'
    assert [(t.kind, t.text, t.start) for t in clex.tokens(text)] == [
        ('id', b'int', 0), ('id', b'x', 4), ('punct', b'=', 6), ('num', b'0x1f', 8),
        ('punct', b';', 12), ('id', b's', 24), ('punct', b'=', 26), ('str', b'"a{"', 28),
        ('chr', b"L'b'", 33), ('punct', b';', 37),
        ('pp', b'#define M(a) \\\n  { a }', 39),
        ('id', b'f', 62), ('punct', b'(', 63), ('id', b'x', 64), ('punct', b')', 65),
        ('punct', b';', 66)]


def directive_ranges(found):
    return [(t.kind, t.text, t.start, t.end) for t in found]


def pp_tokens(text):
    return directive_ranges(t for t in clex.tokens(text) if t.kind == clex.PP)


# where a `#` starts a directive and where it does not: after blanks and
# comments, after a continued line, inside literals and comments, after a
# comment that spans lines from code, a literal's prefix, a lone slash or
# backslash, an unterminated literal or comment
DIRECTIVE_CASES = [
    b'#if A\nx\n#endif\n',
    b'  /* c */ # if A\n',
    b'a /*\n*/ #if A\n#else\n',
    b'a \\\n#if A\n#if B\n',
    b'"#if A" \'#\' u8"#x"\n  #define Q "a\\"#b"\n',
    b'// #if A\n/* \n#if B\n */\n#ifdef C\n',
    b'x / y #z\n\t#\tinclude <a.h>\n',
    b'a \\ b\n#undef A\n',
    b'"unterminated\n#if A\n\'x\n#elif B\n',
    b'a /* open\n#if A',
    b'#define F(x) #x ## y /* \n */ z\n#endif',
    b'',
]


def test_directives_are_the_directive_tokens():
    for text in DIRECTIVE_CASES:
        assert directive_ranges(clex.directives(text)) == pp_tokens(text), text


def test_directives_are_the_directive_tokens_of_the_corpus():
    import glob
    import os
    top = os.path.join(os.path.dirname(__file__), '..')
    files = glob.glob(os.path.join(top, 'corpus', '*.c')) + \
        glob.glob(os.path.join(top, 'programs', '*.cpc'))
    assert files
    for f in files:
        with open(f, 'rb') as fh:
            text = fh.read()
        assert directive_ranges(clex.directives(text)) == pp_tokens(text), f
