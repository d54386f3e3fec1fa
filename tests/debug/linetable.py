"""The line table of a compiled CPC program against the lines of its source.

gdb's breakpoints, `next`, `bt` and gcc's messages all read the line table
that the `#line` directives of the generated C make.  A source file's lines
are read here lexically (comments, strings and preprocessor lines removed):

- a line *holds code* when a statement that computes something starts on it
  (an expression statement, a declaration with an initializer, `return e`,
  the head of `if`, `switch`, `while` or of a `for` with a clause);
- a line *cannot hold code* when it is blank, a comment, a preprocessor
  line, outside every function, or inside one but made only of braces,
  `else`, `do` or labels (the function's own braces excepted).

`check(source, obj)` reads the line table of object file `obj` (gcc -g, -O0)
with `objdump --dwarf=decodedline` and returns the violations, each
`(kind, line, text)`:

- `no-code`     a line that holds code has none in the table;
- `stray-code`  a line that cannot hold code has code;
- `out-of-order` within one C function, in address order, the line goes
  back to a line that is neither a loop's or a branch's head around it
  (where -O0 code jumps back to) nor the first line of the statement that
  spans the line before (a statement written on several lines), nor the
  function's head: the code of a statement is attributed to a line the
  statement is not on.

`executed_order(sources, trace)` checks the lines a program ran, in the
order it ran them (a trace of exec_trace.py, the program at -O0): within
one C invocation, a line that runs after a later line of the same file must
be where -O0 code goes back to: a loop's or a branch's head, the first
statement of a loop's body (`while (1)` has no head code) or a label's (a
goto's target), the first line of
the statement that spans the line before, or the function's head.  Each
violation is `('runs-back', line, text, after line)`: the code of a
statement runs before code the source puts before it, or is attributed to
a line the statement is not on.

Run as a program: `python3 linetable.py SOURCE OBJECT` prints the violations.
"""
import bisect
import os
import re
import subprocess
import sys

TYPE_WORDS = {
    'void', 'char', 'short', 'int', 'long', 'float', 'double', 'signed', 'unsigned', '_Bool',
    'bool', '_Complex', 'struct', 'union', 'enum', 'const', 'volatile', 'register', 'auto',
    '_Atomic', 'restrict', '__restrict', 'typeof', '__typeof__', '__typeof', '_Alignas',
    'inline', '__inline', '__extension__', '__attribute__', '__int128', '_Float128',
    'size_t', 'ssize_t', 'uint8_t', 'uint16_t', 'uint32_t', 'uint64_t', 'int8_t',
    'int16_t', 'int32_t', 'int64_t', 'intptr_t', 'uintptr_t', 'ptrdiff_t', 'FILE',
    'cpc_condvar', 'cpc_continuation', 'cps',
}
NO_CODE_DECL = {'static', 'extern', 'typedef', '_Static_assert', 'static_assert', '_Thread_local',
                '__thread'}
HEADS = {'if', 'switch', 'while', 'for'}
# the names of the cps functions a file declares (`cps int f(`, `CPS int f(`)
CPS_DECL_RE = re.compile(r'\b(?:cps|CPS)\b[^;{()=]*?\b([A-Za-z_]\w*)\s*\(')
TOKEN_RE = re.compile(r'''
    (?P<ws>[ \t\r\f\v]+)
  | (?P<nl>\n)
  | (?P<comment>/\*.*?\*/|//(?:\\\n|[^\n])*)
  | (?P<str>(?:u8|[uUL])?"(?:\\.|\\\n|[^"\\\n])*"|(?:[uUL])?'(?:\\.|[^'\\\n])*')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[eEpP][+-]|[\w.])*)
  | (?P<op>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|\#\#|[^\s])
''', re.S | re.X)



VLA_ELEMENT_TYPES = {'char', 'short', 'int', 'long', 'unsigned', 'signed', 'float', 'double',
                     '_Bool', 'bool', '*'}


def declares_vla(toks):
    """Whether tokens toks hold the declaration of a variable-length array
    (`char v[n];`, `int *p[n + 1]`): an identifier after a basic type or `*`,
    then a bracket whose size names a variable.  Its block's closing brace
    holds code in C (the stack restored, or, in a cps function, the heap
    copy freed: translator/cpc/vlas.py)."""
    for i in range(2, len(toks) - 1):
        if toks[i].text != '[' or not toks[i - 1].text.isidentifier() or \
                toks[i - 2].text not in VLA_ELEMENT_TYPES:
            continue
        depth, j = 0, i
        while j < len(toks):
            depth += (toks[j].text == '[') - (toks[j].text == ']')
            if depth == 0:
                break
            j += 1
        if any(t.text.isidentifier() and t.text != 'sizeof' for t in toks[i + 1:j]):
            return True
    return False


class Tok:
    __slots__ = ('text', 'line')

    def __init__(self, text, line):
        self.text, self.line = text, line

    def __repr__(self):
        return '%s@%d' % (self.text, self.line)


def tokens(src):
    """The tokens of C text `src` outside preprocessor lines, each with its
    line; and the set of lines of preprocessor directives."""
    phys = src.split('\n')
    toks, line, pos = [], 1, 0
    while pos < len(src):
        m = TOKEN_RE.match(src, pos)
        if m is None:
            pos += 1
            continue
        kind, text = m.lastgroup, m.group()
        if kind == 'nl':
            line += 1
        elif kind not in ('ws', 'comment'):
            toks.append(Tok(text, line))
        if kind != 'nl':
            line += text.count('\n')
        pos = m.end()
    directive_lines = set()
    renumbered = None
    out, last_line = [], 0
    skip_to = 0
    for t in toks:
        if t.line <= skip_to:
            continue
        if t.text == '#' and t.line != last_line:
            if renumbered is None and re.match(r'\s*#\s*(line\b|\d)', phys[t.line - 1]):
                renumbered = t.line
            end = t.line
            while end <= len(phys) and phys[end - 1].rstrip().endswith('\\'):
                end += 1
            directive_lines.update(range(t.line, end + 1))
            skip_to = end
            continue
        out.append(t)
        last_line = t.line
    return out, directive_lines, renumbered, conditional_lines(phys)


def conditional_lines(phys):
    """The lines of the conditional groups (#if ... #endif) of which either
    branch may be the one compiled: those with an #else or #elif, or
    whose condition names the build (CORPUS_CPC, __CPC...)."""
    stack, out = [], set()
    for n, ln in enumerate(phys, 1):
        m = re.match(r'\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)', ln)
        if not m:
            continue
        d = m.group(1)
        if d in ('if', 'ifdef', 'ifndef'):
            stack.append([n, 'CPC' in m.group(2)])
        elif d in ('elif', 'else') and stack:
            stack[-1][1] = True
        elif d == 'endif' and stack:
            start, either = stack.pop()
            if either:
                out.update(range(start, n + 1))
    return out


class Function:
    def __init__(self, head, open_line):
        self.head, self.open, self.close = head, open_line, None


class Source:
    """The lexical model of one source file (see the module's doc)."""

    def __init__(self, path):
        self.path = path
        with open(path, encoding='utf-8', errors='surrogateescape') as fh:
            src = fh.read()
        self.text_lines = src.split('\n')
        toks, self.directives, self.renumbered, self.conditional = tokens(src)
        self.cps_names = set(CPS_DECL_RE.findall(src)) | {
            'cpc_yield', 'cpc_sleep', 'cpc_wait', 'cpc_io_wait', 'cpc_link', 'cpc_done'}
        self.line_toks = {}
        for t in toks:
            self.line_toks.setdefault(t.line, []).append(t.text)
        self.functions = []
        self.required = set()          # lines that hold code
        self.structural = set()        # lines inside a function that cannot hold code
        self.heads = set()             # lines of loop and branch heads
        self.stmt_span = {}            # line -> first line of the statement that spans it
        self.nested_fn_braces = set()  # lines of a nested function's braces
        self.jumps = set()             # lines of return, break, continue, goto
        self.targets = set()           # lines a loop or a goto goes back to: do bodies, labels
        self._parse(toks)

    def _parse(self, toks):
        depth = 0
        fn = None
        decl_start = 0          # index of the first token of the current top-level declaration
        paren = 0
        for i, t in enumerate(toks):
            x = t.text
            if x in '([':
                paren += 1
            elif x in ')]':
                paren -= 1
            if depth == 0 and paren == 0 and x in (';', '}'):
                if not (x == ';' and fn is None and self._kr_head(toks, decl_start, i)):
                    decl_start = i + 1
                continue
            if x == '{':
                if depth == 0 and fn is None and self._is_function_body(toks, decl_start, i):
                    fn = Function(toks[decl_start].line, t.line)
                    fn.first = i
                depth += 1
            elif x == '}':
                depth -= 1
                if depth == 0:
                    if fn is not None:
                        fn.close = t.line
                        fn.last = i
                        self.functions.append(fn)
                        fn = None
                    decl_start = i + 1
        for fn in self.functions:
            self._statements(toks, fn)

    @staticmethod
    def _kr_head(toks, a, b):
        """Whether toks[a:b] is a K&R definition's head so far: a
        declarator with an identifier list, then parameter declarations,
        before the body's `{` (which the next `{` at depth 0 must be)."""
        j = b + 1
        while j < len(toks) and toks[j].text not in ('{', '}', '=', '('):
            j += 1
        if j >= len(toks) or toks[j].text != '{':
            return False
        words = [t.text for t in toks[a:b]]
        return '(' in words and ')' in words and '=' not in words and \
            words[words.index('(') + 1:words.index('(') + 2] != ['void'] and \
            all(w.isidentifier() or w in ('(', ')', ',', ';', '*', '[', ']')
                for w in words[words.index('('):])

    @staticmethod
    def _is_function_body(toks, a, b):
        words = [t.text for t in toks[a:b]]
        if words and words[-1] == ';' and '=' not in words:
            return '(' in words             # a K&R definition's parameter declarations
        if not words or '=' in words or words[-1] not in (')',) and not (
                words[-1].isidentifier() and ')' in words):
            return False
        if words[0] in ('struct', 'union', 'enum', 'typedef') and '(' not in words:
            return False
        return '(' in words

    def _statements(self, toks, fn):
        """Classify the lines of function fn's body."""
        body = toks[fn.first + 1:fn.last]
        lines_with_tokens = {}
        for t in body:
            lines_with_tokens.setdefault(t.line, []).append(t.text)
        # statement starts: after ; { } or a label's colon, at paren depth 0,
        # outside the braces of a type or an initializer
        starts = []
        paren = 0
        prev = '{'
        qmarks = 0
        braces = []             # per open brace: True when it opens a block
        stmt_start = 0
        openers = []            # per open paren: the token before it
        last_opener = ''        # the token before the last paren group closed
        kind = True
        nested = []             # [name, open line, close line] of nested functions
        start_depth = {}
        governed = set()        # statements that are the body of a head, else or do
        loop_brace = False      # the last token opened a loop's body
        block_starts = []
        for k, t in enumerate(body):
            x = t.text
            in_aggregate = braces and not braces[-1]
            if paren == 0 and not in_aggregate and (
                    prev in (';', '{', '}', 'HEAD', 'else', 'do') or prev == ':' and qmarks == 0):
                starts.append(k)
                stmt_start = k
                start_depth[k] = len(braces)
                if prev in ('HEAD', 'else', 'do'):
                    governed.add(k)         # the body of a head: runs or not
                if prev == 'do' or prev == '{' and k >= 2 and body[k - 2].text == 'do':
                    self.targets.add(t.line)    # where a do-while goes back to
                elif prev == 'HEAD' and last_opener in ('while', 'for') or \
                        prev == '{' and loop_brace:
                    self.targets.add(t.line)    # where `while (1)`, `for (;;)` go back to
            if x in '([':
                openers.append(body[k - 1].text if k else '')
                paren += 1
            elif x in ')]':
                paren -= 1
                opener = openers.pop() if openers else ''
                if paren == 0:
                    last_opener = opener
            elif x == '?':
                qmarks += 1
            elif x == ':' and qmarks:
                qmarks -= 1
            elif x == '{':
                block_starts.append(k)
                p_ = body[k - 1].text if k else '{'
                opener = last_opener if p_ == ')' else ''
                first = body[stmt_start].text
                if in_aggregate or p_ in ('=', ',', 'return'):
                    braces.append(False)
                elif p_ == '(':
                    braces.append(True)             # a statement expression
                elif p_ == ')' and opener in HEADS:
                    braces.append(True)
                elif p_ == ')' and (opener.isidentifier() or opener == ')') and \
                        first not in ('if', 'for', 'while', 'switch', 'else', 'do'):
                    # a nested function: its head is where its code starts
                    self.heads.update(range(body[stmt_start].line, t.line + 1))
                    self.nested_fn_braces.add(t.line)
                    braces.append('fn')
                    nested.append([opener, t.line, None])
                elif p_ == ')':
                    braces.append(False)            # a compound literal
                elif p_ in ('else', 'do', '{', '}', ';', ':'):
                    braces.append(True)
                elif first in ('struct', 'union', 'enum', 'typedef') or \
                        p_ in ('struct', 'union', 'enum') or \
                        k >= 2 and body[k - 2].text in ('struct', 'union', 'enum'):
                    braces.append(False)
                elif first in ('cpc_spawn', 'cpc_detached', 'cpc_attached'):
                    braces.append('fn')             # its ends are code: the thread's
                    self.heads.add(t.line)
                    self.nested_fn_braces.add(t.line)
                    nested.append([None, t.line, None])
                else:
                    braces.append(True)
            elif x == '}':
                kind = braces.pop() if braces else True
                if kind == 'fn':
                    self.nested_fn_braces.add(t.line)
                    open_fns = [n for n in nested if n[2] is None]
                    if open_fns:
                        open_fns[-1][2] = t.line
                block_start = block_starts.pop() if block_starts else 0
                if 'cleanup' in [b.text for b in body[block_start:k]] or \
                        declares_vla(body[block_start:k]):
                    self.nested_fn_braces.add(t.line)     # the cleanups run there
            if x in (';', '{', '}') and paren == 0:
                qmarks = 0
            loop_brace = x == '{' and k >= 1 and body[k - 1].text == ')' and \
                last_opener in ('while', 'for')
            if paren or x in '([':
                prev = None
            elif x == ')' and last_opener in HEADS and not (
                    k + 1 < len(body) and body[k + 1].text == ';') and \
                    body[stmt_start].text not in ('}', 'do'):
                prev = 'HEAD'           # a statement follows the head of if, for, while...
            elif x == '}' and kind is False:
                prev = 'AGGREGATE'
            else:
                prev = x
        dead_at = None          # the depth of a jump that what follows cannot pass
        for k in starts:
            x = body[k].text
            label = x in ('case', 'default') or k + 1 < len(body) and \
                body[k + 1].text == ':' and x.isidentifier()
            if dead_at is not None and start_depth[k] < dead_at:
                dead_at = None
            if label:
                self.targets.add(body[k].line)
                # the statement labelled, and when it is a block, the first
                # statement in it (and so on down nested blocks)
                for j in (j for j in starts if j > k):
                    self.targets.add(body[j].line)
                    if body[j].text != '{':
                        break
            if label or dead_at is None or start_depth[k] != dead_at:
                dead_at = None
                self._statement(body, k)
            if x in ('goto', 'return', 'break', 'continue') and k not in governed:
                dead_at = start_depth[k]
        words = [t.text for t in body]
        for name, a, b in nested:
            if name is not None and b is not None and words.count(name) == 1:
                # never called: gcc emits no code for it
                self.required -= set(range(a, b + 1))
        for line, words in lines_with_tokens.items():
            if {'goto', 'break', 'continue', 'return'} & set(words) or \
                    self.cps_names & set(words):
                # gcc may lay its jump out apart (a cps call returns to the
                # scheduler, and resumes elsewhere)
                self.jumps.add(line)
            if line in (fn.open, fn.close) or line in self.nested_fn_braces:
                continue
            if all(w in ('{', '}', 'else', 'do', ';') for w in words):
                self.structural.add(line)

    def _statement(self, body, k):
        """Statement starting at body[k]: record its line if it holds code,
        the lines it spans, and loop and branch heads."""
        first = body[k]
        x = first.text
        # its tokens up to its end (`;` at paren depth 0, or a `{` of a body)
        j, paren = k, 0
        while j < len(body):
            y = body[j].text
            if y in '([':
                paren += 1
            elif y in ')]':
                paren -= 1
            elif paren == 0 and y in (';', '{', '}') and j > k:
                break
            elif paren == 0 and y == '{' and j == k:
                break
            j += 1
        words = [t.text for t in body[k:j + 1]]
        last_line = body[min(j, len(body) - 1)].line
        if x in HEADS or x == 'else' and len(words) > 1 and words[1] == 'if':
            self.heads.add(first.line)
            # the head's parenthesised part
            h = k + (2 if x == 'else' else 1)
            depth_p, e = 0, h
            while e < len(body):
                if body[e].text == '(':
                    depth_p += 1
                elif body[e].text == ')':
                    depth_p -= 1
                    if depth_p == 0:
                        break
                e += 1
            inner = [t.text for t in body[h + 1:e]]
            for ln in range(first.line, body[min(e, len(body) - 1)].line + 1):
                self.stmt_span.setdefault(ln, first.line)
            if x == 'for':
                if [w for w in inner if w != ';']:
                    self.required.add(first.line)
            elif not (len(inner) == 1 and re.fullmatch(r'\d+', inner[0])):
                self.required.add(first.line)
            return
        if x in ('}',) and len(words) > 1 and words[1] == 'while':
            self.heads.add(first.line)
            return
        if x == 'while':
            return
        for ln in range(first.line, last_line + 1):
            self.stmt_span.setdefault(ln, first.line)
        if x in ('cpc_spawn', 'cpc_detached', 'cpc_attached'):
            self.heads.add(first.line)
            self.required.add(first.line)
            return
        if x in ('return', 'break', 'continue', 'goto'):
            self.jumps.add(first.line)      # -O0 code may place the jump after what follows
        if x in ('va_end', '__builtin_va_end'):
            return
        if x in ('{', '}', ';', 'else', 'do', 'case', 'default', 'break', 'continue', 'goto',
                 'asm', '__asm__', '__asm') or x in NO_CODE_DECL:
            return
        if len(words) > 1 and words[1] == ':' and x.isidentifier():
            return              # a label
        if x == 'return':
            if len(words) > 2:
                self.required.add(first.line)
            return
        if words[-1] not in (';',):
            return              # a local struct definition, a block...
        if self._declaration(words):
            depth_p = 0
            for w in words:
                if w in '([':
                    depth_p += 1
                elif w in ')]':
                    depth_p -= 1
                elif w == '=' and depth_p == 0:
                    self.required.add(first.line)
                    return
            return
        if words[0] == '(' and words[1] == 'void' and words[2] == ')':
            return              # (void)x;
        self.required.add(first.line)

    @staticmethod
    def _declaration(words):
        if words[0] in TYPE_WORDS or words[0].endswith('_t'):
            return True
        if not words[0].isidentifier() or len(words) < 3:
            return False
        # `T x`, `T *x`, `T **x`: a typedef name then a declarator
        w = 1
        while w < len(words) and words[w] in ('*', 'const', 'volatile', 'restrict'):
            w += 1
        return w < len(words) and words[w].isidentifier() and words[w] not in (
            'sizeof',) or (words[1] == '(' and words[2] == '*')

    def cannot_hold_code(self, line):
        if self.renumbered is not None and line >= self.renumbered:
            return False
        if line in self.directives or line not in self.line_toks:
            return True
        if line in self.structural:
            return True
        for fn in self.functions:
            if fn.head <= line <= fn.close:
                return False
        return True


def line_rows(obj, basename):
    """[(address, line)] of the statement rows of file `basename` in the
    line table of `obj`, in address order."""
    out = subprocess.run(['objdump', '--dwarf=decodedline', '--wide', obj], capture_output=True,
                         text=True, errors='replace').stdout
    rows = []
    for ln in out.splitlines():
        parts = ln.split()
        if len(parts) < 4 or parts[0] != basename:
            continue
        try:
            line, addr = int(parts[1]), int(parts[2], 16)
        except ValueError:
            continue
        if parts[-1] != 'x':
            continue
        rows.append((addr, line))
    return rows


def function_starts(obj):
    out = subprocess.run(['nm', '-n', '--defined-only', obj], capture_output=True,
                         text=True).stdout
    starts = set()
    for ln in out.splitlines():
        parts = ln.split()
        if len(parts) == 3 and parts[1] in 'tTwW':
            starts.add(int(parts[0], 16))
    return sorted(starts)


def check(source, obj, name=None):
    """The violations of the line table of object `obj` (gcc -O0 -g) for
    source file `source` (its name in the table: `name`, else its
    basename)."""
    s = Source(source)
    rows = line_rows(obj, name or os.path.basename(source))
    starts = function_starts(obj)
    have = {line for _, line in rows}
    bad = []
    # from a #line on, the table names other lines: those are not checked
    if s.renumbered is not None:
        rows = [r for r in rows if r[1] < s.renumbered]
        s.required = {x for x in s.required if x < s.renumbered}
    for line in sorted(s.required - have - s.conditional):
        bad.append(('no-code', line))
    for line in sorted(have):
        if s.cannot_hold_code(line):
            bad.append(('stray-code', line))
    heads_of_fn = {fn.head for fn in s.functions} | {fn.open for fn in s.functions} | \
        {fn.close for fn in s.functions}
    prev = None
    for addr, line in sorted(rows):
        fn_index = bisect.bisect_right(starts, addr)
        if prev is not None and prev[0] == fn_index and line < prev[1]:
            p = prev[1]
            ok = (line in heads_of_fn or line in s.heads or line in s.jumps or p in s.jumps or
                  p in s.heads or
                  s.stmt_span.get(p) is not None and line >= s.stmt_span.get(p) or
                  any(fn.head <= line <= fn.open for fn in s.functions))
            if not ok:
                bad.append(('out-of-order', line, p))
        prev = (fn_index, line)
    return [(b[0], b[1], s.text_lines[b[1] - 1].strip() if 0 < b[1] <= len(s.text_lines)
             else '') + b[2:] for b in bad]


def goes_back_to(s, before, line):
    """Whether -O0 code of source model s may run `line` right after
    `before` (a later line) in one invocation."""
    return (line in s.heads or line in s.targets or
            s.stmt_span.get(before) is not None and line >= s.stmt_span[before] or
            any(fn.head <= line <= fn.open for fn in s.functions))


def read_trace(path):
    """The events of an exec_trace.py trace: (function, base, entry, file
    index, line)."""
    with open(path) as fh:
        return [(int(a, 16), int(b, 16), int(c), int(d), int(e))
                for a, b, c, d, e in (ln.split() for ln in fh if ln.strip())]


def executed_order(sources, trace):
    """The violations of the order in which the lines of files `sources`
    ran in `trace` (see the module's doc)."""
    models = [Source(p) for p in sources]
    last = {}
    bad = set()
    for fn, base, entry, index, line in trace:
        prev = None if entry else last.get((fn, base))
        last[(fn, base)] = (index, line)
        if prev is None or prev[0] != index or line >= prev[1]:
            continue
        s = models[index]
        if not goes_back_to(s, prev[1], line):
            bad.add((index, line, prev[1]))
    return [(sources[i], 'runs-back', line,
             models[i].text_lines[line - 1].strip() if line <= len(models[i].text_lines) else '',
             before) for i, line, before in sorted(bad)]


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write('usage: linetable.py SOURCE OBJECT [NAME-IN-TABLE]\n')
        return 2
    bad = check(*argv[1:])
    for b in bad:
        print('%s:%d: %s: %s%s' % (argv[1], b[1], b[0], b[2],
                                   ' (after line %d)' % b[3] if len(b) > 3 else ''))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
