"""A raw C lexer for steps that must read a file before Clang can parse it.

Invariant: `tokens(text)` returns the tokens of bytes `text` in order, each
with its exact byte range; comments and blanks produce none, a string or
character literal (any prefix) is one token, and a preprocessor directive
line (with its backslash continuations and comments) is one `pp` token, so
that braces, parentheses and names inside any of them never count.  Macros
are not expanded: a caller sees the file as it is written.
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


_PUNCTS = [b'...', b'<<=', b'>>=', b'->', b'++', b'--', b'<<', b'>>', b'<=', b'>=',
           b'==', b'!=', b'&&', b'||', b'*=', b'/=', b'%=', b'+=', b'-=', b'&=',
           b'^=', b'|=', b'##']
_ID_RE = re.compile(rb'[A-Za-z_$][A-Za-z0-9_$]*')
_NUM_RE = re.compile(rb'\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.])*')
_PREFIX_RE = re.compile(rb'(?:u8|u|U|L)?(["\'])')


def _skip_literal(text, i, quote):
    """Offset after the literal whose opening quote is at i."""
    n = len(text)
    j = i + 1
    while j < n:
        c = text[j]
        if c == 0x5c:            # backslash
            j += 2
            continue
        if c == quote or c == 0x0a:
            return j + 1
        j += 1
    return n


def _skip_comment(text, i):
    """Offset after the comment starting at i (`//` or `/*`), else i."""
    if text.startswith(b'//', i):
        j = i
        while True:
            k = text.find(b'\n', j)
            if k < 0:
                return len(text)
            if text[k - 1:k] == b'\\':       # a continued // comment
                j = k + 1
                continue
            return k
    if text.startswith(b'/*', i):
        k = text.find(b'*/', i + 2)
        return len(text) if k < 0 else k + 2
    return i


def tokens(text):
    out = []
    n = len(text)
    i = 0
    line_start = True            # only blanks and comments so far on this line
    while i < n:
        c = text[i]
        if c in b' \t\r\f\v':
            i += 1
            continue
        if c == 0x0a:
            i += 1
            line_start = True
            continue
        if c == 0x5c and text[i + 1:i + 2] == b'\n':     # line splice
            i += 2
            continue
        j = _skip_comment(text, i)
        if j != i:
            i = j
            continue
        if c == 0x23 and line_start:                        # '#': a directive
            j = i
            while j < n:
                if text[j] == 0x0a:
                    if text[j - 1] == 0x5c:
                        j += 1
                        continue
                    break
                k = _skip_comment(text, j)
                if k != j:
                    j = k
                    continue
                if text[j] in b'"\'' and not text.startswith(b'include', i + 1):
                    j = _skip_literal(text, j, text[j])
                    continue
                j += 1
            out.append(Tok(PP, text[i:j], i, j))
            i = j
            continue
        line_start = False
        m = _PREFIX_RE.match(text, i)
        if m:
            q = m.start(1)
            j = _skip_literal(text, q, text[q])
            out.append(Tok(STR if text[q] == 0x22 else CHR, text[i:j], i, j))
            i = j
            continue
        m = _ID_RE.match(text, i)
        if m:
            out.append(Tok(ID, m.group(0), i, m.end()))
            i = m.end()
            continue
        m = _NUM_RE.match(text, i)
        if m:
            out.append(Tok(NUM, m.group(0), i, m.end()))
            i = m.end()
            continue
        for p in _PUNCTS:
            if text.startswith(p, i):
                out.append(Tok(PUNCT, p, i, i + len(p)))
                i += len(p)
                break
        else:
            out.append(Tok(PUNCT, text[i:i + 1], i, i + 1))
            i += 1
    return out
