"""A raw C lexer for steps that must read a file before Clang can parse it.

Invariant: `tokens(text)` returns the tokens of bytes `text` in order, each
with its exact byte range; comments and blanks produce none, a string or
character literal (any prefix) is one token, and a preprocessor directive
line (with its backslash continuations and comments) is one `pp` token, so
that braces, parentheses and names inside any of them never count.  Macros
are not expanded: a caller sees the file as it is written.  `directives(text)`
is the `pp` tokens of `tokens(text)` alone, found without making the others.
"""
import re

ID, NUM, STR, CHR, PUNCT, PP = 'id', 'num', 'str', 'chr', 'punct', 'pp'


class Tok:
    __slots__ = ('kind', 'text', 'start', 'end')

    def __init__(self, kind, text, start, end):
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end

    def __repr__(self):
        return 'Tok(%s %r @%d)' % (self.kind, self.text, self.start)


_TOKEN_RE = re.compile(rb"""
  (?P<ws>(?:[ \t\r\f\v]|\\\n)+)
| (?P<nl>\n)
| (?P<com>//(?:[^\n\\]|\\.|\\\n)*|/\*.*?(?:\*/|\Z))
| (?P<str>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.|\\\n)*"?)
| (?P<chr>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.|\\\n)*'?)
| (?P<id>[A-Za-z_$][A-Za-z0-9_$]*)
| (?P<num>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*)
| (?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[*/%+\-&^|]=|\#\#|.)
""", re.S | re.X)
# a directive: up to the first newline not continued, with its comments and literals
_DIRECTIVE_RE = re.compile(rb"""
\#(?:[^\n\\/"']|\\.|\\\n|/\*.*?(?:\*/|\Z)|//(?:[^\n\\]|\\.|\\\n)*|/|"(?:[^"\\\n]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)*
""", re.S | re.X)
_KINDS = {'str': STR, 'chr': CHR, 'id': ID, 'num': NUM, 'punct': PUNCT}


def tokens(text):
    out = []
    n = len(text)
    i = 0
    line_start = True            # only blanks and comments so far on this line
    match = _TOKEN_RE.match
    while i < n:
        if line_start and text[i] == 0x23:                   # '#': a directive
            m = _DIRECTIVE_RE.match(text, i)
            out.append(Tok(PP, m.group(0), i, m.end()))
            i = m.end()
            continue
        m = match(text, i)
        k = m.lastgroup
        j = m.end()
        if k == 'nl':
            line_start = True
        elif k == 'ws' or k == 'com':
            pass
        else:
            line_start = False
            out.append(Tok(_KINDS[k], m.group(0), i, j))
        i = j
    return out


# What decides where directives are, and nothing else: a comment, a literal
# (a `#` or a quote inside one is not one), a line break (continued or
# not), a `#`, blanks (which keep a line at its start) and runs of
# anything else (blanks first taken as blanks: a run starts with something
# else, and ends the line's start).  A literal's prefix is part of a run;
# so is a `/` that starts no comment.
_SCAN_RE = re.compile(rb"""
  (?P<com>//(?:[^\n\\]|\\.|\\\n)*|/\*.*?(?:\*/|\Z))
| (?P<lit>"(?:[^"\\\n]|\\.|\\\n)*"?|'(?:[^'\\\n]|\\.|\\\n)*'?)
| (?P<nl>\n)
| (?P<hash>\#)
| (?P<ws>(?:[ \t\r\f\v]|\\\n)+)
| (?P<run>[^/"'\n\#\\]+|.)
""", re.S | re.X)


def directives(text):
    """The preprocessor directive lines of bytes `text`, as `tokens` gives
    them (the same Tok objects' values), without tokenizing the rest: the
    scan stops at comments, literals, line breaks and `#`s only."""
    out = []
    n = len(text)
    i = 0
    line_start = True
    match = _SCAN_RE.match
    while i < n:
        m = match(text, i)
        k = m.lastgroup
        if k == 'hash':
            if line_start:
                d = _DIRECTIVE_RE.match(text, i)
                out.append(Tok(PP, d.group(0), i, d.end()))
                i = d.end()
                continue
            line_start = False
        elif k == 'nl':
            line_start = True
        elif k != 'ws' and k != 'com':
            line_start = False
        i = m.end()
    return out
