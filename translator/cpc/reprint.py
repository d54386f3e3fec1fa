"""A function re-printed from its macro-expanded form, with its lines
mapped back to the source.

Clang's pretty printer renders a whole function (libclang prints
declarations only, not statements) with a layout of its own: one block item
per line, indented four spaces per enclosing block.  `function(u, c)` puts a
`#line` directive before the line of each statement (`statement_lines`: the
block items, the branches and loop bodies that are not blocks), so that
gcc's messages and gdb's lines in the re-printed function name the line
where the statement is written.  Statements are matched to the rendering in
order, each to the next line indented as deep as it is nested.  A line the
rendering adds (a block's `}`, `else`, a label, the rest of a statement)
gets the line where its block ends, where a do-while's condition is, or
where what follows is: a macro's expansion stays on the macro's line, never
on the lines after it.

Where the rendering is not C that gcc reads, or not the program's C, it is
mended here, for functions (`function`) and other declarations
(`declaration`): <stdatomic.h>'s operations become gcc's builtins, a struct,
union or enum defined inside an expression gets its definition back (an
unnamed one where it is used, a named one before its block item), a
declaration of GNU local labels is written as one, `_Alignas` goes back in
front of its declaration, the vector attribute Clang repeats (broken) on
each declarator after the first goes, `static_assert`, `typeof` and `asm`
take the spellings every C mode reads (`_Static_assert`, `__typeof__`,
`__asm__`), the pragmas written in the body (which the rendering drops:
`pack` changes the layout of the records after it) go back, as `#pragma`
lines, before the block item that follows them, and the attributes of the
function that Clang ignores (`optimize`) go back in front of it.  A rendering
is the code after expansion: `shield_macros` gives the directives that keep
the C compiler from expanding it again.
"""
import re

from .analysis.attributes import attributes, attributes_written
from .analysis.syntax import ancestors, node_id, walk
from . import clex
from . import frontend as fe
from . import cursors
from .libclang import pretty
from . import rewrite as rw
from .analysis import pragmas

K = fe.K
INDENT = 4
TAG_KINDS = (K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL)

# <stdatomic.h>'s generic functions as Clang's header expands them, and the
# same operations as gcc's builtins (what gcc's header expands them to): the
# re-printed text is compiled by gcc.  Each maps the argument list.
C11_ATOMIC_RE = re.compile(r'\b__c11_atomic_(\w+)\s*\(')
GCC_ATOMICS = {
    'init': lambda a: '__atomic_store_n(%s, %s, __ATOMIC_RELAXED)' % (a[0], a[1]),
    'load': lambda a: '__atomic_load_n(%s)' % ', '.join(a),
    'store': lambda a: '__atomic_store_n(%s)' % ', '.join(a),
    'exchange': lambda a: '__atomic_exchange_n(%s)' % ', '.join(a),
    'compare_exchange_strong': lambda a: '__atomic_compare_exchange_n(%s, %s, %s, 0, %s, %s)'
    % tuple(a),
    'compare_exchange_weak': lambda a: '__atomic_compare_exchange_n(%s, %s, %s, 1, %s, %s)'
    % tuple(a),
    'thread_fence': lambda a: '__atomic_thread_fence(%s)' % a[0],
    'signal_fence': lambda a: '__atomic_signal_fence(%s)' % a[0],
    'is_lock_free': lambda a: '__atomic_is_lock_free(%s, 0)' % a[0],
}
for _op in ('add', 'sub', 'and', 'or', 'xor', 'nand', 'max', 'min'):
    GCC_ATOMICS['fetch_' + _op] = (lambda op: lambda a: '__atomic_fetch_%s(%s)' % (
        op, ', '.join(a)))(_op)


NO_OBJECT = ('thread_fence', 'signal_fence', 'is_lock_free')

# Clang's atomic_flag is `struct { atomic_bool _Value; }` and its header
# reaches the member (`&(obj)->_Value`); gcc's flag has no such member, and
# gcc's header passes the flag itself to its flag builtins.
FLAG_MEMBER_RE = re.compile(r'^&\s*(.*?)\s*->\s*_Value$', re.S)
GCC_FLAG_OPS = {
    'exchange': lambda flag, a: '__atomic_test_and_set(%s, %s)' % (flag, a[2]),
    'store': lambda flag, a: '__atomic_clear(%s, %s)' % (flag, a[2]),
}


def _call_args(text, i):
    """The arguments of the call whose `(` is at text[i-1], and the offset
    after its `)`."""
    args, depth, start = [], 0, i
    for j in range(i, len(text)):
        ch = text[j]
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            if depth == 0:
                args.append(text[start:j].strip())
                return args, j + 1
            depth -= 1
        elif ch == ',' and depth == 0:
            args.append(text[start:j].strip())
            start = j + 1
    raise ValueError('unbalanced call')


def gcc_atomics(text):
    """Clang's __c11_atomic_* builtins in `text` spelt as gcc's."""
    out, pos = [], 0
    while True:
        m = C11_ATOMIC_RE.search(text, pos)
        if m is None:
            return ''.join(out) + text[pos:]
        args, end = _call_args(text, m.end())
        args = [gcc_atomics(a) for a in args]
        conv = GCC_ATOMICS.get(m.group(1))
        flag = FLAG_MEMBER_RE.match(args[0]) if args else None
        if flag is not None and m.group(1) in GCC_FLAG_OPS and len(args) == 3:
            out.append(text[pos:m.start()])
            out.append(GCC_FLAG_OPS[m.group(1)](flag.group(1), args))
            pos = end
            continue
        if conv is not None and m.group(1) not in NO_OBJECT:
            # gcc's builtins (and Clang's, which reads the text again) take
            # a pointer to the plain type, as gcc's header passes it
            args[0] = '(__typeof__((void)0, *(%s)) *)(%s)' % (args[0], args[0])
        out.append(text[pos:m.start()])
        out.append(conv(args) if conv is not None else text[m.start():end])
        pos = end


LABELS = (K.LABEL_STMT, K.CASE_STMT, K.DEFAULT_STMT)
# where the rendering puts the sub-statements of a statement: kid index
SUBSTATEMENTS = {K.IF_STMT: (1, 2), K.WHILE_STMT: (-1,), K.SWITCH_STMT: (-1,),
                 K.FOR_STMT: (-1,), K.DO_STMT: (0,)}


# A statement with attributes: Clang writes the attributes first, then the
# statement indented (` __attribute__((fallthrough))        ;`).
ATTRIBUTED_LINE_RE = re.compile(r'^ (?:__attribute__|\[\[)')


def attributed_statement(n):
    return n.kind == K.UNEXPOSED_STMT and len(cursors.kids(n)) == 1 and \
        not cursors.kids(n)[0].kind.is_expression()


def statement_lines(body, lines):
    """[(i, depth, statement)]: each statement under the compound statement
    `body` that the rendering `lines` starts on a line of its own, matched
    to that line i, in order: the block items, and the branches and loop
    bodies that are not blocks (the rendering indents them one level).  A
    statement is matched to the next line indented as deep as it is
    nested (depth 1 for the body's own items); a block that is a branch or
    a loop's body is on its head's line or on a line of its own (the
    rendering writes `while (c)` alone, `if (c) {` not); a statement
    expression's items are one level deeper than the statement it is in;
    a label's statement is on the line after the label, at its level."""
    out = []
    pos = [1]                   # line 0 is the function's head

    def find(depth, attributed):
        want = ' ' * (INDENT * depth)
        for i in range(pos[0], len(lines)):
            ln = lines[i]
            if ln.startswith(want) and ln[len(want):len(want) + 1] not in (' ', '}', '') or \
                    attributed and ATTRIBUTED_LINE_RE.match(ln):
                pos[0] = i + 1
                return i
        return None

    def line_of(n, depth):
        if n.kind in LABELS:
            line_of(cursors.kids(n)[-1], depth)
            return
        i = find(depth, attributed_statement(n))
        if i is not None:
            out.append((i, depth, n))
        inside(n, depth)

    def block(n, depth):
        for k in cursors.kids(n):
            line_of(k, depth + 1)

    def own_line(depth):
        """Whether the next line is a `{` alone at `depth`."""
        i = pos[0]
        return i < len(lines) and lines[i] == ' ' * (INDENT * depth) + '{'

    def inside(n, depth):
        kids = cursors.kids(n)
        if n.kind == K.COMPOUND_STMT:
            block(n, depth)
            return
        if attributed_statement(n):
            inside(kids[0], depth)      # on the attributes' line
            return
        subs = SUBSTATEMENTS.get(n.kind, ())
        subs = {(i if i >= 0 else len(kids) + i) for i in subs if -len(kids) <= i < len(kids)}
        for i, k in enumerate(kids):
            if i not in subs:
                statement_expressions(k, depth)
            elif k.kind == K.COMPOUND_STMT and not own_line(depth + 1):
                block(k, depth)
            elif n.kind == K.IF_STMT and i == 2 and k.kind == K.IF_STMT:
                inside(k, depth)            # `else if` on the `else` line
            else:
                line_of(k, depth + 1)

    def statement_expressions(n, depth):
        if n.kind == K.StmtExpr:
            for k in cursors.kids(n):
                if k.kind == K.COMPOUND_STMT:
                    block(k, depth)
            return
        for k in cursors.kids(n):
            statement_expressions(k, depth)

    block(body, 0)
    return out


def _line_number(directive):
    return int(directive.split()[1])


def function(u, c, verbatim=None):
    """The macro-expanded text of function definition c, with `#line`
    directives before its block items (see the module's doc).  The pieces
    of source text it copies as written (macros unexpanded) are appended to
    the list `verbatim`, when given (see shield_macros)."""
    text = unnamed_types_written(u, c, portable_spellings(gcc_atomics(pretty(c))),
                                 verbatim)
    body = [k for k in cursors.kids(c) if k.kind == K.COMPOUND_STMT]
    if not body:
        return text
    lost = ignored_attributes_written(u, c, body[-1])
    if verbatim is not None:
        verbatim.append(lost)
    text = lost + text
    lines = text.split('\n')
    marks = {}
    placed = []                   # (start, end, depth, line) of each item found
    line_of_item = {}             # node_id(item) -> its line
    for i, depth, item in statement_lines(body[-1], lines):
        marks[i] = rw.line_directive(u, item.extent.start.offset)
        placed.append((item.extent.start.offset, item.extent.end.offset, depth, i))
        line_of_item[node_id(item)] = i
        lines[i] = local_labels_declared(item, lines[i])
    tags = tags_defined_in_expressions(body[-1])
    parents = {id(n): p for n, p in walk(body[-1], skip_spawn=False, into_sizeof=True)} \
        if tags else {}
    for tag in tags:
        # before the innermost item around the definition, on its line (the
        # item keeps its line number); found by the tree, since the items
        # of one macro expansion share their offsets
        i = next((line_of_item[node_id(p)] for p in ancestors(tag, parents)
                  if node_id(p) in line_of_item), None)
        if i is None:
            o = tag.extent.start.offset
            around = [p for p in placed if p[0] <= o < p[1]]
            i = max(around, key=lambda p: p[2])[3] if around else min(marks, default=None)
        if i is not None:
            ln = lines[i]
            cut = len(ln) - len(ln.lstrip(' '))
            one_line = re.sub(r'\s*\n\s*', ' ', pretty(tag))
            lines[i] = ln[:cut] + one_line + '; ' + ln[cut:]
    before = {}
    closing = max(i for i, ln in enumerate(lines) if ln.strip())      # the body's `}`
    for at, pragma in pragmas.written_in(u, body[-1].extent.start.offset,
                                         body[-1].extent.end.offset):
        nxt = [p[3] for p in placed if p[0] > at]
        before.setdefault(min(nxt) if nxt else closing, []).append(pragma)
    # a line the rendering adds (a `}`, `else`, `} while (0);`, a branch of
    # a macro's statement) is on the line where the statement before it
    # ends, or the condition of a do-while: never on the lines that follow
    # in the source (the lines of a macro's expansion are all its line)
    ends = {}
    for a, b, depth, i in placed:
        ends[i] = rw.line_directive(u, b)
    dos = [n for n, _ in walk(body[-1], skip_spawn=False) if n.kind == K.DO_STMT]
    out = []
    numbered = None               # the line the next output line is numbered
    last_end = None
    opened = []                   # the directives of the ends of the blocks open here
    starts = sorted(marks)
    do_conds = iter(sorted(dos, key=lambda n: n.extent.end.offset))
    for i, ln in enumerate(lines):
        out.extend(before.get(i, ()))
        want = None
        if i in marks or i in before:
            want = marks.get(i) or rw.line_directive(u, c.extent.end.offset)
        elif i == closing:
            want = rw.line_directive(u, c.extent.end.offset)
        elif i > closing:
            want = None
        elif ln.lstrip().startswith('}'):
            # a block's end: where it ends in the source
            want = opened.pop() if opened else last_end
            if ln.lstrip().startswith('} while ('):
                d = next(do_conds, None)
                if d is not None and cursors.kids(d):
                    want = rw.line_directive(u, cursors.kids(d)[-1].extent.start.offset)
        elif i > 0:
            # a label, an `else`, the rest of a statement: where what follows is
            later = [j for j in starts if j > i]
            want = marks[later[0]] if later else last_end
        if want is not None and (i in marks or want != numbered):
            out.append(want)
            numbered = want
        if i in ends:
            last_end = ends[i]
        if i > 0 and i != closing:
            opened.extend([ends.get(i, last_end)] * _braces_opened(ln))
        out.append(vector_declarators(alignas_first(ln)))
        if numbered is not None:
            numbered = '#line %d %s' % (_line_number(numbered) + 1,
                                        numbered.split(None, 2)[2])
    return '\n'.join(out)


def _braces_opened(line):
    """How many more blocks line opens than it closes (braces in its
    strings and character constants do not count)."""
    puncts = [t.text for t in clex.tokens(line.encode()) if t.kind == clex.PUNCT]
    return puncts.count(b'{') - puncts.count(b'}')


def ignored_attributes_written(u, c, body):
    """`__attribute__((...)) ` with the attributes written on the head of
    function definition c that Clang ignores, and so does not render
    (`optimize("wrapv")`), or ''."""
    known = {name for name, _ in attributes(c)}
    lost = [text for name, text in
            attributes_written(u.text[c.extent.start.offset:body.extent.start.offset])
            if name not in known]
    return '__attribute__((%s)) ' % ', '.join(lost) if lost else ''


def declaration(u, c, verbatim=None):
    """The macro-expanded text of declaration c (not a function definition),
    less its `;` (`verbatim`: as for function)."""
    return unnamed_types_written(u, c, portable_spellings(pretty(c)), verbatim)


def identifiers(text):
    """The identifiers of C text, outside its literals and directive lines."""
    return {t.text.decode() for t in clex.tokens(text.encode()) if t.kind == clex.ID}


def shield_macros(u, text, verbatim=()):
    """(before, after): the directives that compile the rendering `text`
    with none of its identifiers a macro, and restore the macros after it.
    A rendering is the code after expansion: the C compiler must not expand
    it again, whatever macros are defined where it goes (a function-like
    macro named like a function the expansion calls, `#define E(x) x` in
    front of `E(E)(X)`, an object-like one, a self-referential one, one
    that the body undefines or defines anew: its directives go in front of
    the rendering).  So every identifier of the rendering that the unit
    defines as a macro anywhere (in force there or not: undefining a name
    that is no macro changes nothing) is pushed and undefined before it
    (`#pragma push_macro`, `#undef`) and popped after it.  Identifiers of
    directive lines (pragmas that go back, which the compiler expands) and
    of the pieces copied as written (`verbatim`) keep their macros; words
    inside string literals and character constants are no identifiers."""
    names = u.macro_names()
    keep = set()
    for piece in verbatim:
        keep.update(identifiers(piece))
    found = identifiers(text)
    shield = sorted((found & names) - keep)
    return (''.join('#pragma push_macro("%s")\n#undef %s\n' % (m, m) for m in shield),
            ''.join('#pragma pop_macro("%s")\n' % m for m in shield))


UNNAMED_RE = re.compile(r'\b(struct|union|enum) \((?:unnamed|anonymous) (?:struct|union|enum) '
                        r'at ([^()]*?):(\d+):(\d+)\)')


def unnamed_types_written(u, c, txt, verbatim=None):
    """Clang renders a use of an unnamed struct, union or enum type defined
    in an expression (`sizeof(struct {char a;})`) by its place: the
    definition is written back from the source (appended to `verbatim`
    too, when given)."""
    if 'unnamed' not in txt and 'anonymous' not in txt:
        return txt
    records = {}
    for n, p in walk(c, skip_spawn=False, into_sizeof=True):
        if n.kind in TAG_KINDS:
            f, line, col = u.loc_of(n)
            records[(line, col)] = n

    def written(m):
        n = records.get((int(m.group(3)), int(m.group(4))))
        r = u.written(n) if n is not None else None
        if r is None:
            return m.group(0)
        # (with the attributes after its `}`: `struct {...} __attribute__((packed))`)
        piece = u.text[r[0]:rw.after_attributes(u.text, r[1])].decode('utf-8', 'surrogateescape')
        if verbatim is not None:
            verbatim.append(piece)
        return piece
    return UNNAMED_RE.sub(written, txt)


# Keywords as Clang spells them -> as every C mode reads them: C23's
# `static_assert` (a macro of <assert.h> before), and GNU C's `typeof` and
# `asm`, which strict modes (-std=c11) do not know.
PORTABLE_SPELLINGS = {b'static_assert': b'_Static_assert', b'typeof': b'__typeof__',
                      b'asm': b'__asm__'}
ASM_QUALIFIERS = (b'volatile', b'goto', b'inline')


def _clang_keyword(raw, t, nxt):
    """Whether identifier token t is where Clang writes one of the keywords:
    `static_assert(` opening its line, `typeof (`, `asm (` or `asm volatile`.
    (A call of a function so named, in strict C, has no blank before `(`.)"""
    if t.text == b'static_assert':
        return nxt.text == b'(' and nxt.start == t.end and \
            raw[raw.rfind(b'\n', 0, t.start) + 1:t.start].strip() == b''
    return raw[t.end:nxt.start] == b' ' and (
        nxt.text == b'(' or (t.text == b'asm' and nxt.text in ASM_QUALIFIERS))


def portable_spellings(text):
    """The rendering with the keywords of PORTABLE_SPELLINGS spelled as every C
    mode reads them; names in string literals and calls are left alone."""
    raw = text.encode('utf-8', 'surrogateescape')
    toks = clex.tokens(raw)
    found = [t for t, nxt in zip(toks, toks[1:])
             if t.kind == clex.ID and t.text in PORTABLE_SPELLINGS and _clang_keyword(raw, t, nxt)]
    for t in reversed(found):
        raw = raw[:t.start] + PORTABLE_SPELLINGS[t.text] + raw[t.end:]
    return raw.decode('utf-8', 'surrogateescape')


# GNU local labels (`__label__ out, again;`) are rendered as labels: `out:, again:;`.
RENDERED_LABELS_RE = re.compile(r'( *)((?:\w+:, )*\w+:);$')


def local_labels_declared(item, line):
    """The rendered line of block item `item`, with its declaration of local
    labels written as one."""
    m = RENDERED_LABELS_RE.fullmatch(line)
    if m is None or item.kind != K.DECL_STMT or \
            any(k.kind != K.UNEXPOSED_DECL for k in cursors.kids(item)):
        return line
    return '%s__label__ %s;' % (m.group(1), m.group(2).replace(':', ''))


def tags_defined_in_expressions(body):
    """The named struct, union and enum definitions written in a type name
    inside an expression (`sizeof(struct s {int a;})`, a cast, a compound
    literal, offsetof): Clang's rendering names the type there without
    defining it.  (An unnamed one is rendered by its place:
    unnamed_types_written.)"""
    return [n for n, p in walk(body, skip_spawn=False, into_sizeof=True)
            if n.kind in TAG_KINDS and p is not None and p.kind.is_expression() and
            n.is_definition() and re.match(r'\w+$', n.spelling)]


# `vector(4, float) a, b;` (a macro for `__attribute__((vector_size(...))) float`)
# is rendered `__attribute__((__vector_size__(4 * sizeof(float)))) float a,
# __attribute__((__vector_size__(4 * sizeof()))) b;`, which no compiler reads:
# the attribute in front of the declaration already makes every declarator a
# vector, and the broken copies go.
BROKEN_VECTOR_RE = re.compile(r', __attribute__\(\(__vector_size__\([^()]*\(\)\)\)\) ')


def vector_declarators(line):
    """A rendered line without the broken vector attributes of declarators
    after the first."""
    return BROKEN_VECTOR_RE.sub(', ', line) if 'sizeof()' in line else line


# `_Alignas(long) char x, y;` is rendered `char x _Alignas(long), y _Alignas(long);`,
# which no compiler reads: the specifiers go back in front of the declaration.
ALIGNAS_RE = re.compile(r' _Alignas\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)')


def _declaration_start(line, i):
    """Where the declaration around offset i of a rendered line starts:
    after the `;`, `{`, `}` or unclosed `(` before it, or the indentation."""
    depth = 0
    for j in range(i - 1, -1, -1):
        ch = line[j]
        if ch in ')]':
            depth += 1
        elif ch in '([' and depth:
            depth -= 1
        elif depth == 0 and ch in ';{}(':
            j += 1
            break
    else:
        j = 0
    while j < len(line) and line[j] == ' ':
        j += 1
    return j


def alignas_first(line):
    """A rendered line with each declaration's alignment specifiers in front
    of it."""
    done = 0
    while True:
        m = ALIGNAS_RE.search(line, done)
        if m is None:
            return line
        start = _declaration_start(line, m.start())
        end = line.find(';', m.start())
        end = len(line) if end < 0 else end
        found = [x.group(1) for x in ALIGNAS_RE.finditer(line, start, end) if x.group(1).strip()]
        rest = ALIGNAS_RE.sub('', line[start:end])
        front = ''.join('_Alignas(%s) ' % a for a in dict.fromkeys(found))
        line = line[:start] + front + rest + line[end:]
        done = start + len(front) + len(rest)
