"""The attributes written on a declaration: GNU attributes as Clang reads
them or as they are written (`attributes`, `attributes_written`), those that
say how a function's code is compiled (`code_attributes_text`), CPC's
annotations (`cpc_need_cont`, `cpc_no_retain`: `has_annotation`) and a
variable's `cleanup` function.

Invariant: nothing here changes the program.
"""
import re

from .. import clex
from .. import rewrite as rw
from .syntax import K, callee_decl, decl_fact, parse_cache
from ..cursors import kids


def attributes(decl):
    """The GNU attributes written on declaration `decl`, as (name, text) pairs
    (`('visibility', 'visibility("hidden")')`), read from their spelling: one
    written through a macro (`#define WEAK __attribute__((weak))`) is read
    in the macro's definition.  Attributes Clang ignores are not seen."""
    out = []
    for k in kids(decl):
        if not k.kind.is_attribute():
            continue
        if k.kind == K.VISIBILITY_ATTR:
            # (also set by `#pragma GCC visibility push(...)` around an
            # earlier declaration: its place is the pragma's; its value is
            # its spelling)
            out.append(('visibility', 'visibility("%s")' % k.spelling))
            continue
        # (a macro's tokens run from its definition to its use: read up to
        # the end of the attribute, never all of them)
        tokens = k.get_tokens()
        name, paren = next(tokens, None), next(tokens, None)
        if name is None or not re.match(r'[A-Za-z_]\w*$', name.spelling):
            continue
        text = [name.spelling]
        if paren is not None and paren.spelling == '(':
            depth = 1
            text.append('(')
            for t in tokens:
                text.append(t.spelling)
                depth += {'(': 1, ')': -1}.get(t.spelling, 0)
                if depth == 0:
                    break
        out.append((name.spelling.strip('_'), ' '.join(text)))
    return out


_ATTRIBUTE_KEYWORDS = (b'__attribute__', b'__attribute')


def attributes_written(text):
    """The GNU attributes of the `__attribute__((...))` specifiers written in
    `text`, as (name, text) pairs like `attributes`: unlike those, they
    include the attributes Clang ignores (`optimize`), and not those
    written through a macro."""
    toks = clex.tokens(text)
    out = []
    i = 0
    while i < len(toks):
        if not (toks[i].kind == clex.ID and toks[i].text in _ATTRIBUTE_KEYWORDS and
                [t.text for t in toks[i + 1:i + 3]] == [b'(', b'(']):
            i += 1
            continue
        depth, item, j = 0, [], i + 3
        while j < len(toks):
            t = toks[j]
            if t.kind == clex.PUNCT and t.text == b')' and depth == 0:
                break
            if t.kind == clex.PUNCT and t.text == b',' and depth == 0:
                _attribute_item(item, out)
                item = []
            else:
                depth += {b'(': 1, b')': -1}.get(t.text, 0) if t.kind == clex.PUNCT else 0
                item.append(t)
            j += 1
        _attribute_item(item, out)
        i = j + 2
    return out


def _attribute_item(toks, out):
    if toks and toks[0].kind == clex.ID:
        out.append((toks[0].text.decode().strip('_'),
                    ' '.join(t.text.decode('utf-8', 'surrogateescape') for t in toks)))


# GNU attributes that say how a function's code is compiled.  Every function
# the translator makes of a function's code takes them (a cps function's
# entry, body, resume functions, bounce and defer, which pass its arguments,
# and the functions spawned statements become), or an SSE intrinsic of a
# `target("sse4.2")` function does not build and `optimize("wrapv")`
# computes something else.
CODE_ATTRIBUTES = {
    'target', 'optimize', 'no_sanitize', 'no_sanitize_address', 'no_address_safety_analysis',
    'no_sanitize_thread', 'no_sanitize_undefined', 'no_sanitize_coverage',
    'no_instrument_function', 'no_profile_instrument_function', 'no_stack_protector',
    'stack_protect', 'no_split_stack', 'no_stack_limit', 'zero_call_used_regs',
    'indirect_branch', 'function_return', 'nocf_check', 'fentry_name', 'fentry_section'}


# How often a function runs (`cold`, `hot`): every function made of its code
# takes them, as it takes CODE_ATTRIBUTES, but its deferred path, which is
# always cold (CPC_COLD), takes neither.
FREQUENCY_ATTRIBUTES = {'cold', 'hot'}


def function_attributes(u, decl):
    """The GNU attributes of function decl as (name, text) pairs: those
    Clang reads, and those written on any declaration of the function in the
    main file (which include the attributes Clang ignores, `optimize` or
    `noipa`)."""
    found = list(attributes(decl))
    for d in declarations_in_main_file(u, decl):
        found += attributes_written(u.text[rw.start(d):_head_end(u, d)])
    return found


def declarations_in_main_file(u, decl):
    """Every declaration of function decl in the main file, in source order."""
    cache = parse_cache(u.tu)
    decls = cache.get('function declarations')
    if decls is None:
        decls = cache['function declarations'] = {}
        for d in u.top():
            if d.kind == K.FUNCTION_DECL and u.in_main_file(d):
                decls.setdefault(d.canonical.hash, []).append(d)
    return decls.get(decl.canonical.hash, ())


def declaration_attributes(u, decl):
    """The GNU attributes of declaration decl alone, as (name, text) pairs:
    those Clang reads, and those written on it when it is in the main file."""
    found = list(attributes(decl))
    if u.in_main_file(decl):
        found += attributes_written(u.text[rw.start(decl):_head_end(u, decl)])
    return found


def attributes_text(texts):
    """`__attribute__((a, b)) ` of the attribute texts, each once, or ''."""
    kept = list(dict.fromkeys(texts))
    return '__attribute__((%s)) ' % ', '.join(kept) if kept else ''


def code_attributes_text(u, decl, frequency=True):
    """`__attribute__((...)) ` with the CODE_ATTRIBUTES of function decl (and
    its FREQUENCY_ATTRIBUTES unless `frequency` is false), or ''.  Those
    Clang ignores (`optimize`) are read where they are written, on any
    declaration of the function in the main file."""
    names = CODE_ATTRIBUTES | FREQUENCY_ATTRIBUTES if frequency else CODE_ATTRIBUTES
    return attributes_text(text for name, text in function_attributes(u, decl)
                           if name in names)


def _head_end(u, d):
    """Where function declaration d's head ends: its body, or the end of the
    attributes after its declarator."""
    body = [k for k in kids(d) if k.kind == K.COMPOUND_STMT] if d.is_definition() else []
    if body:
        return body[-1].extent.start.offset
    return rw.after_attributes(u.text, d.extent.end.offset)


def has_annotation(decl, what):
    if decl is None:
        return False
    return decl_fact(decl, what, lambda d: _has_annotation(d, what))


def _has_annotation(decl, what):
    if decl is None:
        return False
    seen = set()
    todo = [decl]
    try:
        d = decl.get_definition()
        if d is not None:
            todo.append(d)
        todo.append(decl.canonical)
    except Exception:
        pass
    for d in todo:
        for ch in d.get_children():
            if ch.kind == K.ANNOTATE_ATTR and ch.spelling == what:
                return True
    return False


def is_need_cont_call(c):
    return c.kind == K.CALL_EXPR and has_annotation(callee_decl(c), 'cpc_need_cont')


_CLEANUP_RE = re.compile(rb'^(?:__)?cleanup(?:__)?\s*\(\s*([A-Za-z_$][\w$]*)\s*\)$')


def cleanup_function(u, attr):
    """The name of the function that attribute cursor `attr` makes a
    variable's cleanup (`__attribute__((cleanup(fn)))`), or None."""
    if attr.kind != K.UNEXPOSED_ATTR:
        return None
    m = _CLEANUP_RE.match(u.text[attr.extent.start.offset:attr.extent.end.offset].strip())
    return m.group(1).decode() if m else None
