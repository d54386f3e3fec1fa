"""Messages in the user's terms: what cpcc prints about a .cpc file names
the user's functions at the user's line and column, with the line quoted.

- `quoted(text)`: the translator's own diagnostics (`file:line:col: error:
  ...`, and their notes), each followed by its source line and a caret under
  the column, as gcc quotes them.
- `relayed(text, sources)`: gcc's messages on the generated C, as gcc wrote
  them to stderr.  The generated C's `#line` directives already put them on
  the user's lines; gcc's column, though, counts in the generated line, and
  its messages name the generated functions.  For a message on a line of one
  of `sources` (the translated files), the names are the user's (`f__cps`,
  `f__body`, `f__resume_2` are f; `cpc_sleep__cps` is cpc_sleep, whose
  arguments count from the user's first, not the continuation), the column is
  that of what the message names in the user's line (the argument it is
  about, else the name it quotes, else the line's first token when gcc's
  column is past the line), and the quoted line gets its caret there.
"""
import os
import re

from . import reserved

# gcc's and the translator's message heads
HEAD_RE = re.compile(r'^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): '
                     r'(?P<kind>error|warning|note|fatal error): (?P<msg>.*)$')
# a line of gcc's quote of the source: ` 12 |   code` or `    |   ^~~`
QUOTE_RE = re.compile(r'^ *\d* \| ')
# the names of the generated C (docs/translator.md): a function F's entry,
# body, deferred entry, bounce, resume stubs, frames, spawned statements and
# their thunks (not its tables for gdb, which no message about code names)
GENERATED_RE = re.compile(
    r'\b([A-Za-z_]\w*?)((?:__spawn_\d+)*)__(?:%s)\b'
    % '|'.join(reserved.CODE_SUFFIXES + reserved.THUNK_SUFFIXES))
SPAWNED_RE = re.compile(r'\b([A-Za-z_]\w*?)(?:__spawn_\d+)+\b')
QUOTED_NAME_RE = re.compile(r'[‘\'`]([A-Za-z_]\w*)[’\'`]')
ARGUMENT_RE = re.compile(r'argument (\d+) of [‘\'`]([A-Za-z_]\w*)__cps[’\'`]')
C_WORDS = {'int', 'char', 'short', 'long', 'float', 'double', 'void', 'signed', 'unsigned',
           'struct', 'union', 'enum', 'const', 'volatile', '_Bool', 'return', 'sizeof'}
PASSING_RE = re.compile(r'argument (\d+) of [‘\'`]([A-Za-z_]\w*)[’\'`]')
# gcc's columns count a tab to the next multiple of 8 (its -ftabstop
# default), and its quotes show the line so expanded: so do the user's lines
TAB_STOP = 8


class Sources:
    """The lines of the files messages are about, read once."""

    def __init__(self):
        self.files = {}

    def raw(self, path, n):
        """Line n of file path as written, or None."""
        if path not in self.files:
            try:
                with open(path, encoding='utf-8', errors='replace') as f:
                    self.files[path] = f.read().split('\n')
            except OSError:
                self.files[path] = None
        lines = self.files[path]
        if lines is None or not 0 < n <= len(lines):
            return None
        return lines[n - 1].rstrip('\n')

    def line(self, path, n):
        """Line n of file path with its tabs expanded as gcc shows them, or None."""
        s = self.raw(path, n)
        return None if s is None else s.expandtabs(TAB_STOP)


def display_column(raw, col):
    """The column gcc gives byte column col of line raw (tabs expanded)."""
    return len(raw[:col - 1].expandtabs(TAB_STOP)) + 1


def quote(src_line, n, col, length=1):
    """gcc's quote of line n with a caret at column col."""
    width = max(5, len(str(n)) + 1)
    caret = ' ' * (col - 1) + '^' + '~' * max(0, length - 1)
    return ['%*d | %s' % (width, n, src_line), '%s | %s' % (' ' * width, caret)]


def quoted(text, sources=None):
    """The translator's diagnostics `text`, each with its source line."""
    sources = sources or Sources()
    out = []
    for ln in text.split('\n'):
        m = HEAD_RE.match(ln)
        raw = m and sources.raw(m.group('file'), int(m.group('line')))
        if not raw or not raw.strip():
            out.append(ln)
            continue
        # (Clang's column counts bytes: gcc's, and the quote's, tabs expanded)
        s = raw.expandtabs(TAB_STOP)
        col = min(display_column(raw, max(1, int(m.group('col')))), len(s) + 1)
        out.append(ln[:m.start('col')] + str(col) + ln[m.end('col'):])
        out.extend(quote(s, int(m.group('line')), col, token_length(s, col)))
    return '\n'.join(out)


def token_length(s, col):
    m = re.match(r'[A-Za-z_]\w*|\d\w*|\S', s[col - 1:])
    return len(m.group()) if m else 1


def caret_length(quote):
    """The length of the range gcc underlines in its quote."""
    for q in quote:
        m = re.search(r'\| *(\^~*)', q)
        if m:
            return len(m.group(1))
    return None


def user_names(msg):
    """msg with the generated functions' names replaced by the user's, and
    argument numbers of cps entries counted from the user's first."""
    msg = ARGUMENT_RE.sub(lambda m: 'argument %d of ‘%s__cps’' % (int(m.group(1)) - 1,
                                                                   m.group(2)), msg)
    msg = GENERATED_RE.sub(lambda m: m.group(1), msg)
    return SPAWNED_RE.sub(lambda m: m.group(1), msg)


def call_argument(s, fn, index):
    """The column (1-based) and length of argument `index` (1-based) of the
    call of `fn` in line s, or None."""
    for m in re.finditer(r'\b%s\s*\(' % re.escape(fn), s):
        depth, start, k = 0, m.end(), 1
        for i in range(m.end(), len(s)):
            ch = s[i]
            if ch in '([{':
                depth += 1
            elif ch in ')]}' and depth:
                depth -= 1
            elif (ch == ',' and depth == 0) or (ch == ')' and depth == 0):
                if k == index:
                    arg = s[start:i]
                    lead = len(arg) - len(arg.lstrip())
                    return start + lead + 1, max(1, len(arg.strip()))
                if ch == ')':
                    break
                k += 1
                start = i + 1
    return None


# How many lines a declaration's parameter list may span, for declared_parameter
DECLARATION_LINES = 40


def declared_parameter(sources, path, n, msg, previous):
    """(line, column, length) of the parameter that gcc's note `msg`
    ("expected ‘T’ but argument is of type ...") is about, in the
    declaration starting at line n of path, where `previous` is the message
    the note follows ("passing argument I of ‘fn’ ..."), or None.  Found as
    the call's arguments are (call_argument), over the lines the parameter
    list spans: gcc's note is on the parameter's own line."""
    m = PASSING_RE.search(previous or '')
    if not (m and msg.startswith('expected ')):
        return None
    lines = []
    for k in range(n, n + DECLARATION_LINES):
        s = sources.line(path, k)
        if s is None:
            break
        lines.append(s)
        if ')' in s:
            at = call_argument('\n'.join(lines), m.group(2), int(m.group(1)))
            if at:
                text = '\n'.join(lines)
                p = at[0] - 1
                line_start = text.rfind('\n', 0, p) + 1
                line_end = text.find('\n', p)
                length = min(at[1], (line_end if line_end >= 0 else len(text)) - p)
                return n + text.count('\n', 0, p), p - line_start + 1, length
    return None


def user_column(s, msg, gcc_col):
    """(column, length) in user line s for message msg (user names)."""
    m = PASSING_RE.search(msg)
    if m:
        at = call_argument(s, m.group(2), int(m.group(1)))
        if at:
            return at
    for name in QUOTED_NAME_RE.findall(msg):
        if name in C_WORDS:
            continue
        w = re.search(r'\b%s\b' % re.escape(name), s)
        if w:
            return w.start() + 1, len(name)
    if 0 < gcc_col <= len(s):
        return gcc_col, token_length(s, gcc_col)
    first = len(s) - len(s.lstrip()) + 1
    return first, token_length(s, first)


LINE_RE = re.compile(r'^#\s*(?:line\s+)?(\d+)(?:\s+"((?:[^"\\]|\\.)*)")?')


def verbatim_lines(generated):
    """{(file, line): generated line} for the user's lines that the
    generated C file `generated` holds alone on their generated line (where
    gcc's columns are the user's if the line is as written); {} when the
    file cannot be read."""
    copies = {}
    try:
        with open(generated, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError:
        return {}
    cur_file, cur_line = None, 1
    for ln in text.split('\n'):
        m = LINE_RE.match(ln)
        if m:
            cur_line = int(m.group(1))
            if m.group(2) is not None:
                cur_file = os.path.abspath(m.group(2).replace('\\\\', '\\').replace('\\"', '"'))
            continue
        copies.setdefault((cur_file, cur_line), []).append(ln)
        cur_line += 1
    return {k: v[0] for k, v in copies.items() if len(v) == 1}


def relayed(text, sources_paths, generated=None, sources=None):
    """gcc's stderr `text` on the C file `generated`, in the user's terms
    (see the module's doc)."""
    sources = sources or Sources()
    users = {os.path.abspath(p) for p in sources_paths}
    verbatim = verbatim_lines(generated) if generated else {}
    out = []
    lines = text.split('\n')
    i = 0
    previous = None
    after_cps_argument = False
    while i < len(lines):
        ln = lines[i]
        m = HEAD_RE.match(ln)
        # (gcc's note on the parameter of a cps function declared in a
        # header: the translation's prototype stands at the header's line)
        on_prototype = m and after_cps_argument and m.group('kind') == 'note' and \
            m.group('msg').startswith('expected ')
        after_cps_argument = bool(m and ARGUMENT_RE.search(m.group('msg')))
        if not m or (os.path.abspath(m.group('file')) not in users and not on_prototype):
            # context lines (`In function ‘f__cps’:`) name the user's functions
            if ln.endswith(':') and not m and 'In function' in ln:
                ln = user_names(ln)
            out.append(ln)
            if m:
                previous = m.group('msg')
            i += 1
            continue
        # this message and gcc's quote of the line after it
        j = i + 1
        while j < len(lines) and QUOTE_RE.match(lines[j]):
            j += 1
        n = int(m.group('line'))
        msg = user_names(m.group('msg'))
        s = sources.line(m.group('file'), n)
        if s is None:
            out.append(user_names(ln))
            out.extend(lines[i + 1:j])
        else:
            gen = verbatim.get((os.path.abspath(m.group('file')), n))
            if gen is not None and gen.rstrip().expandtabs(TAB_STOP) == s.rstrip():
                col = int(m.group('col'))       # the line as written: gcc's column
                length = caret_length(lines[i + 1:j]) or token_length(s, col)
            else:
                at = declared_parameter(sources, m.group('file'), n, msg, previous)
                if at:
                    n, col, length = at
                    s = sources.line(m.group('file'), n)
                else:
                    col, length = user_column(s, msg, int(m.group('col')))
            out.append('%s:%d:%d: %s: %s' % (m.group('file'), n, col, m.group('kind'), msg))
            if s.strip():
                out.extend(quote(s, n, col, length))
        previous = msg
        i = j
    return '\n'.join(out)
