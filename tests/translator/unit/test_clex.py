"""clex.py: the raw lexer of the steps that read a file before Clang."""
from cpc import clex


def test_tokens_with_their_kinds_and_byte_ranges():
    text = b'int x = 0x1f; /* c { */ s = "a{" L\'b\';\n#define M(a) \\\n  { a }\nf(x);'
    assert [(t.kind, t.text, t.start) for t in clex.tokens(text)] == [
        ('id', b'int', 0), ('id', b'x', 4), ('punct', b'=', 6), ('num', b'0x1f', 8),
        ('punct', b';', 12), ('id', b's', 24), ('punct', b'=', 26), ('str', b'"a{"', 28),
        ('chr', b"L'b'", 33), ('punct', b';', 37),
        ('pp', b'#define M(a) \\\n  { a }', 39),
        ('id', b'f', 62), ('punct', b'(', 63), ('id', b'x', 64), ('punct', b')', 65),
        ('punct', b';', 66)]
