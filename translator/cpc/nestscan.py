"""Where the nested function definitions of a file are, read from its text.

Invariant: `scan(text)` returns the file-scope function definitions that
contain nested (GCC inner) function definitions or `auto` forward
declarations of them, as a tree of `Fn`s with exact byte ranges: the
definition (from its first declaration specifier to its closing brace),
its name, its parameter list and its body.  It works on `clex` tokens, so
comments, literals and preprocessor lines never count; a definition that
comes out of a macro expansion is not seen (Clang then reports it).

A nested definition is a block item whose tokens before its `{` are
declaration specifiers, a name and a parenthesised parameter list: at least
one specifier (so `FOREACH(x) {` and `cpc_linked(s) {` are statements), no
statement keyword first, no `=`.
"""
from . import clex

STATEMENT_KEYWORDS = {b'if', b'else', b'while', b'for', b'do', b'switch', b'return',
                      b'case', b'default', b'goto', b'break', b'continue', b'sizeof',
                      b'typedef', b'_Static_assert', b'__extension__'}
TAG_KEYWORDS = {b'struct', b'union', b'enum'}


class Fn:
    """A function definition: file-scope (parent None) or nested."""

    def __init__(self, toks, first, name_i, lparen_i, rparen_i, lbrace_i, parent):
        self.parent = parent
        self.children = []       # nested definitions, in order
        self.forwards = []       # `auto` forward declarations [(start, end, name_off)]
        self.start = toks[first].start
        self.spec = (toks[first].start, toks[name_i].start) if first < name_i else None
        self.name = toks[name_i].text.decode()
        self.name_off = toks[name_i].start
        self.params = (toks[lparen_i].end, toks[rparen_i].start)   # inside the parens
        self.header_end = toks[rparen_i].end
        self.lbrace = toks[lbrace_i].start
        self.end = None          # after the closing brace

    def depth(self):
        d, p = 0, self.parent
        while p is not None:
            d, p = d + 1, p.parent
        return d

    def walk(self):
        """This function's nested definitions, preorder (not itself)."""
        for c in self.children:
            yield c
            yield from c.walk()

    def __repr__(self):
        return 'Fn(%s @%d)' % (self.name, self.start)


def _definition_shape(toks, a, b):
    """(name index, lparen index) if toks[a:b] reads `specifiers NAME (...)`
    ending at b-1 with `)`, with at least one specifier; else None."""
    if b - a < 4 or toks[b - 1].text != b')':
        return None
    if toks[a].kind != clex.ID or toks[a].text in STATEMENT_KEYWORDS:
        return None
    depth = 0
    j = b - 1
    while j >= a:
        t = toks[j].text
        if t == b')':
            depth += 1
        elif t == b'(':
            depth -= 1
            if depth == 0:
                break
        j -= 1
    if depth != 0:
        return None
    name = j - 1
    if name <= a or toks[name].kind != clex.ID:
        return None
    # specifiers: names, `*`, and attribute groups; no `=`, `;`, tag bodies
    depth = 0
    for k in range(a, name):
        t = toks[k].text
        if t == b'(':
            depth += 1
        elif t == b')':
            depth -= 1
        elif depth == 0 and not (toks[k].kind == clex.ID or t == b'*'):
            return None
    if depth != 0:
        return None
    for k in range(j, b):
        if toks[k].text in (b'=', b';', b'{', b'}'):
            return None
    return name, j


def scan(text):
    toks = [t for t in clex.tokens(text) if t.kind != clex.PP]
    tops = []
    # stack entries: [kind, fn]; kind in ('body', 'block', 'other', 'paren')
    stack = []
    stmt = 0                     # index of the first token of the current statement
    cur_fn = None                # innermost function whose body we are in
    i = 0
    n = len(toks)
    while i < n:
        t = toks[i]
        s = t.text
        top = stack[-1][0] if stack else None
        in_code = top in ('body', 'block')
        if s in (b'(', b'['):
            stack.append(['paren', None])
        elif s in (b')', b']'):
            if stack and stack[-1][0] == 'paren':
                stack.pop()
        elif s == b'{':
            if top is None:
                shape = _definition_shape(toks, stmt, i)
                has_eq = _has_top_eq(toks, stmt, i)
                if shape and not has_eq:
                    f = Fn(toks, stmt, shape[0], shape[1], i - 1, i, None)
                    stack.append(['body', f])
                    cur_fn = f
                else:
                    stack.append(['other', None])
            elif top == 'paren':
                # `({`: a statement expression inside code, else an initialiser
                prev = toks[i - 1].text if i else b''
                inside_code = any(e[0] in ('body', 'block') for e in stack)
                stack.append(['block' if prev == b'(' and inside_code else 'other', None])
            elif in_code:
                shape = _definition_shape(toks, stmt, i)
                has_eq = _has_top_eq(toks, stmt, i)
                if shape and not has_eq:
                    f = Fn(toks, stmt, shape[0], shape[1], i - 1, i, cur_fn)
                    cur_fn.children.append(f)
                    stack.append(['body', f])
                    cur_fn = f
                elif has_eq or (i > stmt and (toks[i - 1].text in TAG_KEYWORDS or
                                              (i - 2 >= stmt and toks[i - 2].text in TAG_KEYWORDS))) \
                        or toks[stmt].text == b'return':
                    stack.append(['other', None])
                else:
                    stack.append(['block', None])
            else:
                stack.append(['other', None])
            stmt = i + 1
        elif s == b'}':
            if stack:
                kind, f = stack.pop()
                if kind == 'body':
                    f.end = t.end
                    if f.parent is None:
                        if f.children or f.forwards:
                            tops.append(f)
                    cur_fn = f.parent
            stmt = i + 1
        elif s == b';' and top in (None, 'body', 'block', 'other'):
            if in_code and toks[stmt].text == b'auto':
                shape = _definition_shape(toks, stmt, i)
                if shape:
                    cur_fn.forwards.append((toks[stmt].start, t.end, toks[shape[0]].start))
            stmt = i + 1
        elif s == b':' and in_code and _is_label_end(toks, stmt, i):
            stmt = i + 1
        i += 1
    return tops


def _has_top_eq(toks, a, b):
    """An `=` outside parentheses in toks[a:b]: an initialiser follows."""
    depth = 0
    for k in range(a, b):
        t = toks[k].text
        if t in (b'(', b'['):
            depth += 1
        elif t in (b')', b']'):
            depth -= 1
        elif t == b'=' and depth == 0:
            return True
    return False


def _is_label_end(toks, stmt, i):
    """toks[i] is the `:` ending a label (`name:`, `case X:`, `default:`)."""
    if i == stmt + 1 and toks[stmt].kind == clex.ID and toks[stmt].text not in STATEMENT_KEYWORDS:
        return True
    if toks[stmt].text in (b'case', b'default'):
        return not any(toks[k].text == b'?' for k in range(stmt, i))
    return False
