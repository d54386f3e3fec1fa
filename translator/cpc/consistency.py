"""Consistency check (after header inlining): every declaration of a
function agrees on whether it is cps."""
import re

from . import cps_free
from . import frontend as fe
from .clang_types import is_cps_function_type
from .cursors import kids, place

K = fe.K

# a declaration that spells one of these before the name spells its type itself
TYPE_WORDS_RE = re.compile(
    rb'\b(int|void|char|long|short|float|double|unsigned|signed|struct|union|enum)\b')


# a macro definition that is a name and one other (`coroutine_fn cps`), read
# as text without its comments and continued lines: only those (and those
# with literals, which could hide a comment's marks) are tokenised, not the
# thousands of a library's headers
ONE_NAME_DEFINITION_RE = re.compile(rb'\s*[A-Za-z_$][\w$]*[ \t]+[A-Za-z_$][\w$]*\s*')
LAYOUT_RE = re.compile(rb'/\*.*?\*/|//[^\n]*|\\\n', re.S)


def _may_name_one_name(text):
    """A macro definition's text (None: unknown) may be `NAME OTHER`."""
    if text is None or b'"' in text or b"'" in text:
        return True
    return ONE_NAME_DEFINITION_RE.fullmatch(LAYOUT_RE.sub(b' ', text)) is not None


IDENTIFIER_RE = re.compile(rb'[A-Za-z_$][\w$]*')


def cps_spelling_re(u):
    """`cps`, or an object-like macro that stands for it (QEMU's
    `#define coroutine_fn cps`, also through other such macros).  It is
    searched for in the main file's text only, so only the macros that text
    names, and those their one-name bodies name in turn, are read: not the
    thousands of a library's headers."""
    defs = {}
    for d in u.top():
        if d.kind == K.MACRO_DEFINITION:
            defs.setdefault(d.spelling, []).append(d)
    todo = {m.decode('utf-8', 'surrogateescape') for m in set(IDENTIFIER_RE.findall(u.text))}
    todo = [n for n in todo if n in defs]
    seen = set(todo)
    bodies = {}
    while todo:
        name = todo.pop()
        for d in defs[name]:
            if not _may_name_one_name(u.spelled(d)):
                continue
            toks = [t.spelling for t in d.get_tokens()]
            if len(toks) == 2 and toks[0] == name:
                bodies[name] = toks[1]
        body = bodies.get(name)
        if body in defs and body not in seen:
            seen.add(body)
            todo.append(body)
    names = {'cps'}
    grew = True
    while grew:
        grew = False
        for name, body in bodies.items():
            if body in names and name not in names:
                names.add(name)
                grew = True
    alts = b'|'.join(re.escape(n.encode()) for n in sorted(names))
    return re.compile(rb'\b(' + alts + rb')\b')


def _implicitly_declared(c):
    """c's first declaration is the implicit `int f()` that a call to an
    undeclared function makes (C89; an extension since C99): Clang gives it
    the call's location and no extent."""
    first = c.canonical
    return first != c and first.extent.start.file is None


def function_declarations(u, look_into=lambda u, c: True):
    """The declarations of functions, in the order they are written: those
    at file scope, and those in the bodies of the main file's functions
    for which look_into(u, definition) holds (`void sub(int n);` in a body
    declares the file's `sub` too; a GNU nested function, `auto` or
    defined, is another function)."""
    for c in u.top():
        if c.kind != K.FUNCTION_DECL:
            continue
        yield c
        if c.is_definition() and u.in_main_file(c) and look_into(u, c):
            yield from _block_scope_declarations(c)


def _block_scope_declarations(definition):
    # in the preorder of the definition's listing (once per parse: the
    # passes walk it), a function declaration's own subtree passed by
    where = place(definition)
    if where is None or where[1] != 0:
        yield from _block_scope_declarations_below(definition)
        return
    sub = where[0]
    nodes, ends = sub.nodes, sub.ends
    i, n = 1, len(nodes)
    while i < n:
        k = nodes[i].kind
        if k == K.FUNCTION_DECL:
            ch = nodes[i]
            if not ch.is_definition() and ch.storage_class != fe.ci.StorageClass.AUTO:
                yield ch
            i = ends[i]
        elif k == K.LAMBDA_EXPR:
            i = ends[i]
        else:
            i += 1


def _block_scope_declarations_below(node):
    for ch in kids(node):
        if ch.kind == K.FUNCTION_DECL:
            if not ch.is_definition() and \
                    ch.storage_class != fe.ci.StorageClass.AUTO:
                yield ch
        elif ch.kind != K.LAMBDA_EXPR:
            yield from _block_scope_declarations_below(ch)


# The keywords the cps tag is made of (the front-end reads `cps` as a GNU
# attribute) and the generated C's attributes are spelt with.
ATTRIBUTE_KEYWORDS = ('__attribute__', '__attribute')


def attribute_macro_errors(u):
    """A program that defines `__attribute__` as a macro (to hide GNU C
    from other compilers) takes the cps tag away: every cps function would
    be read as native."""
    errs = []
    for c in u.main_top():
        if c.kind == K.MACRO_DEFINITION and c.spelling in ATTRIBUTE_KEYWORDS:
            errs.append(u.diag(c, '`%s` is defined as a macro: cps functions are marked with '
                               'a GNU attribute, which this definition removes (define it '
                               'only for compilers other than gcc: `#ifndef __GNUC__`)'
                               % c.spelling))
    return errs


def check_consistency(u):
    """Every declaration of a function agrees on cps-ness (Clang keeps the
    first declaration's type, so the spelling is checked)."""
    seen = {}
    errs = attribute_macro_errors(u)
    if errs:
        raise fe.Diags(errs)
    spelling = cps_spelling_re(u)
    # (a function without cps code names no cps function: none of its
    # declarations can conflict)
    decls = list(function_declarations(u, cps_free.may_hold_cps))
    # how many declarations each name has: a header's declaration, whose
    # cps-ness is its type's, is asked only when another declaration of its
    # name may disagree with it, or when a call declared it implicitly
    # (the thousands of a library's headers declare most names once)
    count = {}
    for c in decls:
        count[c.spelling] = count.get(c.spelling, 0) + 1
    for c in decls:
        if u.in_main_file(c):
            a = c.extent.start.offset
            nameoff = c.location.offset
            spelled = spelling.search(u.text[a:nameoff]) is not None or \
                u.spells_cps_in(a, nameoff)
            if not spelled:
                # the type may carry it through a typedef
                spelled = is_cps_function_type(c.type) and \
                    u.text[a:nameoff].strip() != b'' and \
                    not TYPE_WORDS_RE.search(u.text[a:nameoff])
        elif count[c.spelling] == 1 and not _implicitly_declared(c):
            continue        # (nothing to agree with: its type is its own)
        else:
            spelled = is_cps_function_type(c.type)
        prev = seen.get(c.spelling)
        if prev is None and spelled and not is_cps_function_type(c.type) and \
                'cpc_cps' not in c.type.spelling:
            # the first declaration, yet Clang gave it the type of the
            # library function it knows by that name (`long labs(long)`),
            # which has no tag
            errs.append(u.diag(c, '`%s` is a C library function the compiler knows '
                               '(a builtin): a cps function cannot take its name' % c.spelling))
            continue
        if prev is None:
            seen[c.spelling] = (spelled, c)
            if spelled and _implicitly_declared(c):
                # A call before any declaration declared it `int f()`, not
                # cps, and was compiled as a call of a native function.
                ff, fl, fc = u.loc_of(c.canonical)
                errs.append(u.diag(c, '`%s` is declared cps here, but its call at %s:%d:%d '
                                   'declared it implicitly, not cps; declare it cps '
                                   'before that call' % (c.spelling, ff, fl, fc)))
        elif prev[0] != spelled:
            first = prev[1]
            ff, fl, fc = u.loc_of(first)
            which = 'cps' if spelled else 'not cps'
            errs.append(u.diag(c, 'conflicting declarations of `%s`: declared %s here, '
                               'but %s at %s:%d:%d' % (
                                   c.spelling, which, 'cps' if prev[0] else 'not cps',
                                   ff, fl, fc)))
    if errs:
        raise fe.Diags(errs)
