"""Text rewriting on Clang source positions.

Invariant: edits replace byte ranges of the unit's text that correspond to
whole AST nodes written in the file; a replacement whose line count differs
from the original is followed by a `#line` directive, so that the code after
it keeps its original (presumed) line numbers.
"""
import bisect
import re

import clang.cindex as ci

from . import clex
from . import frontend as fe
from .cursors import kids
from .libclang import presumed

K = fe.K

def skip_space(text, i):
    n = len(text)
    while i < n:
        c = text[i:i + 1]
        if c in (b' ', b'\t', b'\n', b'\r', b'\f', b'\v'):
            i += 1
        elif text.startswith(b'//', i):
            j = text.find(b'\n', i)
            i = n if j < 0 else j
        elif text.startswith(b'/*', i):
            j = text.find(b'*/', i + 2)
            i = n if j < 0 else j + 2
        else:
            break
    return i


GROUP_CLOSE = {b'(': b')', b'[': b']', b'{': b'}'}


def group_end(text, i):
    """The offset after the bracketed group that opens at text[i] (`(`, `[`
    or `{`; nested groups of the same kind counted), or None when text[i]
    opens none or the group does not close.  Brackets in literals count:
    the callers scan declarators and keyword arguments, which have none
    that matter."""
    opening = text[i:i + 1]
    close = GROUP_CLOSE.get(opening)
    if close is None:
        return None
    depth = 0
    for j in range(i, len(text)):
        ch = text[j:j + 1]
        depth += (ch == opening) - (ch == close)
        if depth == 0:
            return j + 1
    return None


def full_end(u, c):
    """End offset of statement c including its terminating `;`."""
    e = c.extent.end.offset
    if c.kind == K.COMPOUND_STMT:
        return e
    last = u.text[e - 1:e]
    if last in (b';', b'}'):
        return e
    j = skip_space(u.text, e)
    if u.text[j:j + 1] == b';':
        return j + 1
    return e


def start(c):
    return c.extent.start.offset


def rebuild(u, a, b, subs):
    """u.text[a:b] with `subs` [(s, e, text)] applied (outermost wins)."""
    subs = sorted(subs, key=lambda x: (x[0], -x[1]))
    out = []
    pos = a
    for (s, e, t) in subs:
        if s < pos:
            continue  # nested in a previous replacement
        out.append(u.text[pos:s].decode('utf-8', 'surrogateescape'))
        out.append(t)
        pos = e
    out.append(u.text[pos:b].decode('utf-8', 'surrogateescape'))
    return ''.join(out)


_KEPT_DIRECTIVE_RE = re.compile(
    rb'#\s*(?:if|ifdef|ifndef|elif|elifdef|elifndef|else|endif|define|undef)\b')


_LINE_DIRECTIVE_RE = re.compile(rb'#\s*(?:line\b|\d)')


def code_bytes(u, node):
    """The size in bytes of node's text without its line directives, whose
    file names would make it depend on the path of the file (earlier passes
    write one on each line of a macro's expansion): the size of the code
    that decisions such as inlining (codegen.inline_body) are made on."""
    a, b = node.extent.start.offset, node.extent.end.offset
    text = u.text[a:b]
    if b'#' not in text:
        return b - a
    return b - a - sum(len(t.text) for t in clex.directives(text)
                       if _LINE_DIRECTIVE_RE.match(t.text))


def directives_in(u, a, b):
    """The conditional inclusion and macro definition directives written in
    u.text[a:b], each ending its line.  A rewrite that replaces a declaration
    by generated text keeps them in front of it: the file's conditionals stay
    balanced when the declaration's header holds some (`#if` an ANSI header
    `#else` a K&R one `#endif`, as bison writes yyparse), and a macro that a
    function body defines or undefines stays so after it.  The text of the
    groups goes (the C compiler takes the group the front-end read:
    conditionals.py); `#include`, `#pragma` and `#line` go with it."""
    text = u.text[a:b]
    if b'#' not in text:
        return ''
    return ''.join(t.text.decode('utf-8', 'surrogateescape') + '\n'
                   for t in clex.directives(text) if _KEPT_DIRECTIVE_RE.match(t.text))


def declarator_end(u, b):
    """Where a declarator that Clang's extent ends at `b` really ends.  When
    its parameter list comes out of a macro (`int f P((int x));`, the old
    way to write headers for compilers with and without prototypes), the
    extent stops at the macro's name: names and their parenthesised
    arguments are skipped, up to the `,` or `;` that ends the declarator."""
    limit = u.text.find(b';', b)
    if limit < 0:
        return b
    toks = clex.tokens(u.text[b:limit + 1])
    i, end = 0, b
    while i < len(toks) and toks[i].kind == clex.ID:
        i += 1
        if i < len(toks) and toks[i].text == b'(':
            depth = 0
            while i < len(toks):
                depth += {b'(': 1, b')': -1}.get(toks[i].text, 0)
                i += 1
                if depth == 0:
                    break
            if depth != 0:
                return b
        end = b + toks[i - 1].end
    if i < len(toks) and toks[i].text in (b',', b';'):
        return end
    return b


_STDC_PRAGMA_RE = re.compile(rb'#[ \t]*pragma[ \t]+STDC\b[^\n]*')


def after_stdc_pragmas(u, off):
    """`off` (just inside a `{`), moved past the `#pragma STDC ...` lines
    (FP_CONTRACT, FENV_ACCESS, CX_LIMITED_RANGE) that open the block: C
    allows them only there, so code inserted at the start of a block goes
    after them."""
    while True:
        j = skip_space(u.text, off)
        m = _STDC_PRAGMA_RE.match(u.text, j)
        if m is None:
            return off
        off = m.end()


def presumed_line(u, offset):
    """(file, line) that the line directives in force give `offset` of the
    main file.  Once per offset and parse (the emitter asks it of each call
    site's statement twice), the main file's handle looked up once; kept on
    the translation unit with the text it was parsed from.  libclang is
    asked once per Segments of the text, the line of an offset in one is
    counted from its start."""
    tu = u.tu
    memo = getattr(tu, 'cpc_presumed_lines', None)
    if memo is None or memo[0] is not u.text:
        memo = tu.cpc_presumed_lines = (u.text, tu.get_file(u.path), {}, Segments(u.text))
    lines = memo[2]
    try:
        return lines[offset]
    except KeyError:
        pass
    seg = memo[3]
    start = seg.start_of(offset)
    if start is None or start == offset:
        f, line, col = presumed(ci.SourceLocation.from_offset(tu, memo[1], offset))
        r = lines[offset] = (f or u.path, line)
        return r
    f, line = presumed_line(u, start)
    r = lines[offset] = (f, line + seg.newlines(start, offset))
    return r


class Segments:
    """The text's lines that may hold or continue a directive (a `#` or
    `%:` in them, or a backslash: the next line too), whose offsets libclang
    is asked, and the runs of lines between them: in a run no directive
    changes the presumed line, which goes up by one at each line break from
    the run's start.  A text with carriage returns (a line break of their
    own) or trigraphs (`??=` is a `#`) is not cut: each offset is asked."""

    _MAY_DIRECT = re.compile(rb'#|%:|\\')

    def __init__(self, text):
        self.starts = self.breaks = None
        if b'\r' in text or b'??' in text:
            return
        breaks = [m.start() for m in re.finditer(b'\n', text)]
        marked = set()      # (the lines asked, by number from 0)
        for m in self._MAY_DIRECT.finditer(text):
            i = bisect.bisect_left(breaks, m.start())
            marked.add(i)
            if m.group() == b'\\':
                marked.add(i + 1)
        starts, runs = [0], [True]      # (where each part starts; whether a run)
        for i in sorted(marked):
            if i > len(breaks):
                continue
            a = breaks[i - 1] + 1 if i else 0
            if a == starts[-1]:
                runs[-1] = False
            else:
                starts.append(a)
                runs.append(False)
            if i < len(breaks):
                starts.append(breaks[i] + 1)
                runs.append(True)
        self.starts, self.runs, self.breaks = starts, runs, breaks

    def start_of(self, offset):
        """The start of the run holding `offset`, None when it is on a line
        asked (or the text is not cut)."""
        if self.starts is None:
            return None
        k = bisect.bisect_right(self.starts, offset) - 1
        return self.starts[k] if self.runs[k] else None

    def newlines(self, a, b):
        """The line breaks in text[a:b]."""
        return bisect.bisect_left(self.breaks, b) - bisect.bisect_left(self.breaks, a)


def head_offset(u, c):
    """Where function definition c's generated helpers and prologue are
    said to be: at its name, whose line gcc gives a C function (the line of
    `f (int a)` under `static int`), when the name is written in the file
    between the definition's start and its body; else at the start."""
    a = c.extent.start.offset
    name = c.location.offset
    if u.in_main_file(c) and a <= name < c.extent.end.offset:
        body = [k for k in kids(c) if k.kind == K.COMPOUND_STMT]
        if not body or name < body[-1].extent.start.offset:
            return name
    return a


def line_directive(u, offset):
    f, line = presumed_line(u, offset)
    return '#line %d "%s"' % (line, cstr(f))


def cstr(s):
    return s.replace('\\', '\\\\').replace('"', '\\"')


def fix_lines(u, a, b, new):
    """Replacement text for u.text[a:b] keeping following lines right."""
    old = u.text[a:b]
    if old.count(b'\n') == new.count('\n'):
        return new
    return new + '\n' + resync(u, b)


PAD_LIMIT = 80


def resync(u, off):
    """Text to put after generated lines so that the text from `off` on is
    back on its own line and column: a `#line` directive, a newline, and,
    when the rest of off's line holds more than blanks, spaces up to off's
    column (so gcc's columns stay right without padding empty lines)."""
    j = u.text.find(b'\n', off)
    rest = u.text[off:j if j >= 0 else len(u.text)]
    # blanks, or closing braces alone, need no column: the line's indentation;
    # nor does the rest of a line made long by hoisting (normalize.py writes
    # the statements it generates on the statement's line)
    col = col_of(u, off)
    if rest.strip(b' \t};') and col <= PAD_LIMIT:
        pad = ' ' * col
    elif rest.strip():
        pad = indent_of(u, off)
    else:
        pad = ''
    return line_directive(u, off) + '\n' + pad


def indent_of(u, off):
    """The leading blanks of the line holding offset off."""
    j = u.text.rfind(b'\n', 0, off) + 1
    k = j
    while k < off and u.text[k:k + 1] in (b' ', b'\t'):
        k += 1
    return u.text[j:k].decode('utf-8', 'surrogateescape')


def col_of(u, off):
    j = u.text.rfind(b'\n', 0, off)
    return off - (j + 1)


def apply(text, edits):
    """Apply [(a, b, str)] to bytes `text`, return bytes.  An insertion at
    the start of a replaced range goes before it (boxing's environment
    allocation right after `{`, and a declaration replaced at `{char b[9];`);
    insertions at one place keep the order they were made in."""
    edits = sorted(edits, key=lambda x: (x[0], x[1]))
    out = []
    pos = 0
    for (a, b, t) in edits:
        if a < pos:
            raise ValueError('overlapping edits at %d' % a)
        out.append(text[pos:a])
        out.append(t.encode('utf-8', 'surrogateescape'))
        pos = b
    out.append(text[pos:])
    return b''.join(out)


def outermost(subs):
    """The substitutions (start, end, text) not nested in another one, in
    order: an outer rewrite already contains the text of the inner ones."""
    subs = sorted(subs, key=lambda x: (x[0], -x[1]))
    out = []
    end = -1
    for s in subs:
        if s[0] < end:
            continue
        out.append(s)
        end = max(end, s[1])
    return out


ATTRIBUTE_RE = re.compile(rb'\s*__attribute__\s*\(\(')


def after_attributes(text, b):
    """The offset after the attribute specifiers written from offset b on
    (a record's `} __attribute__((packed)) v;`), b when there are none."""
    while True:
        m = ATTRIBUTE_RE.match(text, b)
        if not m:
            return b
        # the tokens up to the `))` that closes it (a string's parentheses
        # do not count: `section("a(b")`), within 4 KiB: a longer one is
        # left where it is
        depth, end = 2, None
        for t in clex.tokens(text[m.end():m.end() + 4096]):
            depth += {b'(': 1, b')': -1}.get(t.text, 0) if t.kind == clex.PUNCT else 0
            if depth == 0:
                end = m.end() + t.end
                break
        if end is None:
            return b
        b = end
