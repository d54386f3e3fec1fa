"""Block-scope struct and union types of cps functions move to file scope.

A cps function's locals may live in its frame, its environment or a
spawned thread's arguments, structs declared at file scope: a local whose
type is a struct defined inside the function could not be declared there.
So every struct or union defined in the body of a cps function, or of a
function that spawns, moves to file scope, just before the function, under a
name of its own, `F__tag_N_name` (another block may define another `struct
name`), or `F__tag_N_` for one without a tag (`struct { ... } v;`); the
definition in the body becomes `struct F__tag_N_name`, and every use of the
tag in the function follows (`_Generic`'s associations included, whose type
names have no cursors).  Records that declarations define move (the types
variables may have), and so do those defined in expressions
(`g(sizeof(struct t { ... }))`: a cps call's statement may move into a block
of its own, and the tag must stay in scope after it), when written outside
macros; a record nested in another moves with it (an anonymous member stays
a member).  A local enumeration or typedef needs no move: ctype.py spells a
variable of such a type with the type it stands for (the enumeration's
integer type, compatible with it in C); local typedefs are marked unused,
since their uses may all leave the function.  An enumeration defined in an
expression (`g((enum { A = 6 })1)`) becomes a declaration of its own in
front of the statement (in a block with it when its scope ends with the
statement), named `F__tag_N_` when it has no tag, for the same reason.  A
record that depends on something of the function (a variable-length array
bound, a local typedef or enumeration, a statement expression) stays where
it is: a variable of it that must leave the function's stack is an error.

Invariant of the output: no struct or union is defined in such a function
(outside another record), unless it depends on the function's own
declarations.
"""
import bisect

from . import clex
from . import cps_free
from . import frontend as fe
from .analysis.gnu_attributes import attributes
from .analysis.func import func
from .analysis.syntax import ancestors, node_id, parents_of, walk
from .cursors import kids
from . import rewrite as rw
from .analysis import pragmas

K = fe.K
RECORDS = (K.STRUCT_DECL, K.UNION_DECL)
OBJECT_TYPES = (K.DECL_STMT, K.VAR_DECL, K.TYPEDEF_DECL, K.COMPOUND_LITERAL_EXPR)


def _inside(d, f):
    """d is declared in function f (its body or parameters)."""
    p = d.semantic_parent if d is not None else None
    for _ in range(64):
        if p is None or p.kind == K.TRANSLATION_UNIT:
            return False
        if p == f.c:
            return True
        p = p.semantic_parent
    return False


def _unnamed(r):
    """r has no tag: `struct { ... } v;` (Clang spells it `struct (unnamed
    at ...)`)."""
    return r.is_anonymous() and '(' in r.spelling


def _movable_records(u, f, standalone=None):
    """The records defined by declarations in f's body (the types that
    variables may have), each once, written in the file outside macros.  A
    record nested in another moves with it (an anonymous member stays in
    its record); one defined elsewhere (in a sizeof, a cast) is no
    variable's type and stays.  `standalone` (a set) receives the records
    declared alone (`struct s { ... };`, no declarator)."""
    if standalone is None:
        standalone = set()
    out, seen = [], set()
    open_ends = []            # where the records around the walk's place end
    for n, parent in walk(f.body, skip_spawn=False, into_sizeof=True):
        if n.kind not in RECORDS or not n.is_definition() or n.canonical.hash in seen:
            continue
        seen.add(n.canonical.hash)
        a = n.extent.start.offset
        while open_ends and open_ends[-1] <= a:
            open_ends.pop()
        nested = bool(open_ends)
        open_ends.append(n.extent.end.offset)
        # (one defined in an expression, `g(sizeof(struct t {...}))`, moves
        # too: a cps call's statement may move into a block of its own, and
        # the type must stay in scope after it)
        if parent is None or nested or not (parent.kind in OBJECT_TYPES or
                                            parent.kind.is_expression()):
            continue
        if n.spelling and _written_as_is(u, n):
            out.append(n)
            if parent.kind == K.DECL_STMT and len(kids(parent)) == 1:
                standalone.add(n.canonical.hash)
    return out


def _written_as_is(u, n):
    """n is written in the main file as it is, outside any macro."""
    return u.written(n) == (n.extent.start.offset, n.extent.end.offset)


def _hoisted_name(f, i, r):
    return '%s__tag_%d_%s' % (f.name, i, '' if _unnamed(r) else r.spelling)


def _depends_on_function(r, f, moving):
    for n, parent in walk(r, skip_spawn=False, into_sizeof=True):
        if parent is None:
            continue        # r itself
        if n.kind == K.StmtExpr:
            return True     # `({ ... })`, in a bit-field width: only in a function
        d = n.referenced if n.kind in (K.DECL_REF_EXPR, K.TYPE_REF) else None
        if d is not None and _inside(d, f) and d.canonical.hash not in moving:
            return True
    return False


def _tag_refs(u, root, names):
    """Edits renaming the tag in every reference under root to a record of
    `names` (canonical hash -> (old, new))."""
    edits = []
    for n, _ in walk(root, skip_spawn=False, into_sizeof=True):
        if n.kind != K.TYPE_REF or n.referenced is None:
            continue
        h = n.referenced.canonical.hash
        if h not in names:
            continue
        old, new = names[h]
        r = u.written(n)
        if r is None:
            raise fe.Diags([u.diag(n, 'cannot rename `%s` here (it comes out of a macro '
                                   'expansion)' % old)])
        at = u.text.rfind(old.encode(), r[0], r[1])
        if at >= 0:
            edits.append((at, at + len(old), new))
    return edits


def _scope_of(n, parents):
    """The extent (a, b) of the block (or statement: a `for` header's
    declarations) where a declaration n is in scope."""
    for p in ancestors(n, parents):
        if p.kind in (K.COMPOUND_STMT, K.FOR_STMT):
            return p.extent.start.offset, p.extent.end.offset
    return None


def _generic_tag_refs(u, f, names):
    """Edits renaming the tags that `_Generic`'s associations name (their
    type names are no cursors, unlike those of casts and sizeof): each
    `struct name` or `union name` written between the association's
    expressions is the innermost record of that name defined before it in
    a block around it."""
    generics = [n for n, _ in walk(f.body, skip_spawn=False, into_sizeof=True)
                if n.kind == K.GENERIC_SELECTION_EXPR]
    if not generics:
        return []
    parents = parents_of(f.body)
    defined = {}              # (keyword, tag) -> [(offset, scope, record)]
    for n, _ in walk(f.body, skip_spawn=False, into_sizeof=True):
        if n.kind in RECORDS and n.is_definition() and n.spelling and not _unnamed(n):
            scope = _scope_of(n, parents)
            if scope is not None:
                kw = b'union' if n.kind == K.UNION_DECL else b'struct'
                defined.setdefault((kw, n.spelling.encode()), []).append(
                    (n.extent.start.offset, scope, n))
    edits = []
    for g in generics:
        r = u.written(g)
        if r is None or r != (g.extent.start.offset, g.extent.end.offset):
            continue
        covered = [(k.extent.start.offset, k.extent.end.offset) for k in kids(g)]
        toks = clex.tokens(u.text[r[0]:r[1]])
        for t, nxt in zip(toks, toks[1:]):
            at = r[0] + t.start
            if t.text not in (b'struct', b'union') or nxt.kind != clex.ID or \
                    any(a <= at < b for a, b in covered):
                continue
            seen = [(o, sc, rec) for (o, sc, rec) in defined.get((t.text, nxt.text), ())
                    if o < at and sc[0] <= at < sc[1]]
            if not seen:
                continue
            rec = max(seen, key=lambda x: (x[1][0], x[0]))[2]
            h = rec.canonical.hash
            if h in names:
                edits.append((r[0] + nxt.start, r[0] + nxt.end, names[h][1]))
    return edits


STATEMENTS_WITH_HEADERS = (K.IF_STMT, K.SWITCH_STMT, K.WHILE_STMT, K.DO_STMT, K.FOR_STMT)


def _substatements(s):
    """The statements directly under statement s (not its header's
    expressions; every child of a compound statement)."""
    ch = kids(s)
    if s.kind == K.IF_STMT:
        return ch[1:]
    if s.kind == K.DO_STMT:
        return ch[:1]
    if s.kind in (K.WHILE_STMT, K.SWITCH_STMT, K.FOR_STMT, K.LABEL_STMT, K.CASE_STMT,
                  K.DEFAULT_STMT):
        return ch[-1:]
    return []


def _statement_of(n, parents):
    """The statement whose expression (or header, or declaration) holds n:
    an expression statement is the expression itself."""
    prev = n
    for p in ancestors(n, parents):
        if p.kind.is_statement():
            if p.kind == K.COMPOUND_STMT or \
                    any(node_id(x) == node_id(prev) for x in _substatements(p)):
                return prev
            return p
        prev = p
    return None


def _enums_in_expressions(u, f, first):
    """Edits moving each enumeration defined in an expression of f
    (`g((enum { A = 6 })1)`, `sizeof(enum e { B })`) in front of the
    statement around it, as a declaration of its own: a cps call's
    statement may move into a block of its own (normalize.py, the
    emitter), and its enumerators must stay in scope after it.  An unnamed
    one is named `F__tag_N_` (N from `first` on).  The statement is put in
    a block with it when its scope ends with the statement (an `if` or a
    loop, whose header declares it, or a sub-statement of one)."""
    parents = None
    edits, n_tag = [], first
    moved = {}                # id(statement) -> [definition text]
    statements = {}
    for n, parent in walk(f.body, skip_spawn=False, into_sizeof=True):
        if n.kind != K.ENUM_DECL or not n.is_definition() or parent is None or \
                not parent.kind.is_expression() or not _written_as_is(u, n):
            continue
        if parents is None:
            parents = parents_of(f.body)
        stmt = _statement_of(n, parents)
        if stmt is None:
            continue
        a, b = n.extent.start.offset, rw.after_attributes(u.text, n.extent.end.offset)
        text = u.text[a:b].decode('utf-8', 'surrogateescape')
        if _unnamed(n):
            name = '%s__tag_%d_' % (f.name, n_tag)
            n_tag += 1
            brace = text.index('{')
            text = 'enum %s %s' % (name, text[brace:])
        else:
            name = n.spelling
        moved.setdefault(id(stmt), []).append(text)
        statements[id(stmt)] = stmt
        edits.append((a, b, 'enum %s' % name + '\n' * text.count('\n')))
    for key, texts in moved.items():
        stmt = statements[key]
        above = parents.get(id(stmt))
        block = stmt.kind in STATEMENTS_WITH_HEADERS or above is None or \
            above.kind != K.COMPOUND_STMT
        a, b = rw.start(stmt), rw.full_end(u, stmt)
        decls = ''.join('%s; ' % t for t in texts)
        edits.append((a, a, rw.fix_lines(u, a, a, ('{ ' if block else '') + decls)))
        if block:
            edits.append((b, b, ' }'))
    return edits


def _functions(u):
    """The functions whose locals may leave their stack: cps functions and
    functions that spawn."""
    for c in cps_free.code_defs(u):
        f = func(u, c)
        if f.body is not None and (f.is_cps or f.spawns):
            yield c, f


def _unused_typedefs(u, f):
    """Edits marking f's local typedefs `__attribute__((unused))`: their
    uses may all move out of f (a variable boxed in the environment is
    declared with the type the typedef names, a spawned statement becomes a
    function of its own), and gcc's -Wunused-local-typedefs would then
    warn."""
    edits = []
    for n, _ in walk(f.body, skip_spawn=False):
        if n.kind == K.TYPEDEF_DECL and _written_as_is(u, n):
            e = n.extent.end.offset
            edits.append((e, e, ' __attribute__((unused))'))
    return edits


def hoist(u):
    edits = []
    errors = fe.Collected()          # (every function's, not the first one's)
    for c, f in _functions(u):
        with errors.part():
            edits += _hoist_function(u, c, f)
    errors.raise_any()
    return sorted(set(edits))


def _hoist_function(u, c, f):
    """The edits that move function f's records (c: its cursor) to file scope."""
    edits = []
    edits += _unused_typedefs(u, f)
    standalone = set()
    records = _movable_records(u, f, standalone)
    names, moving = {}, set()
    for i, r in enumerate(records, 1):
        names[r.canonical.hash] = (r.spelling, _hoisted_name(f, i, r))
        moving.add(r.canonical.hash)
    records = [r for r in records if not _depends_on_function(r, f, moving)]
    keep = {r.canonical.hash for r in records}
    names = {h: v for h, v in names.items() if h in keep}
    edits += _enums_in_expressions(u, f, len(moving) + 1)
    if not records:
        return edits
    hoisted = []
    inner = set()
    # (read once: most bodies have none, and the records may be many)
    has_pragmas = bool(pragmas.written_in(u, f.body.extent.start.offset,
                                          f.body.extent.end.offset))
    for r in records:
        a, b = rw.start(r), r.extent.end.offset
        # the definition's text from its body on, references renamed
        body_at = u.text.index(b'{', r.location.offset)
        subs = [(x, y, t) for (x, y, t) in _tag_refs(u, r, names) if x >= body_at]
        text = rw.rebuild(u, body_at, b, subs)
        kw = 'union' if r.kind == K.UNION_DECL else 'struct'
        # its attributes (`packed`, `aligned`), before the tag or after
        # the `}`, go with the definition: on a declaration that only
        # names the type they would be ignored
        attrs = ', '.join(t for _, t in attributes(r))
        decl = '%s %s%s %s;' % (kw, '__attribute__((%s)) ' % attrs if attrs else '',
                                names[r.canonical.hash][1], text)
        # and so does the `#pragma pack` in effect there
        pack = pragmas.pack_change(u, f.body.extent.start.offset, a, r) \
            if has_pragmas else None
        if pack is not None:
            give, restore = pragmas.pragma_lines(pack)
            decl = '\n%s%s\n%s' % (give, decl, restore)
        hoisted.append(decl)
        b = rw.after_attributes(u.text, b)
        inner.add((a, b))
        # `struct s { ... };` alone: nothing stays (`struct t;` in a
        # block would declare another, incomplete, type)
        alone = r.canonical.hash in standalone
        # (a blank after the name when the declarator follows at once,
        # as in `}v;`; the lines that follow stay on their own when the
        # definition took several)
        gap = ' ' if u.text[b:b + 1].isalnum() or u.text[b:b + 1] == b'_' else ''
        edits.append((a, b, rw.fix_lines(u, a, b, '' if alone else '%s %s%s' % (
            kw, names[r.canonical.hash][1], gap))))
    inner = sorted(inner)             # (the moved definitions do not overlap)
    for (x, y, t) in _tag_refs(u, f.body, names) + _generic_tag_refs(u, f, names):
        i = bisect.bisect_right(inner, (x, float('inf'))) - 1
        if not (i >= 0 and inner[i][0] <= x and y <= inner[i][1]):
            edits.append((x, y, t))
    at = c.extent.start.offset
    edits.append((at, at, ' '.join(hoisted).strip(' ') + '\n' + rw.resync(u, at)))
    return edits

def check(u):
    out = []
    for c, f in _functions(u):
        records = _movable_records(u, f)
        moving = {r.canonical.hash for r in records}
        for r in records:
            if not _depends_on_function(r, f, moving):
                out.append(u.diag(r, '`%s` is still defined inside `%s`' % (
                    r.type.spelling if _unnamed(r) else '%s %s' % (
                        'union' if r.kind == K.UNION_DECL else 'struct', r.spelling),
                    f.name)))
    return out
