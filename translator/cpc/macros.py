"""Macros out of the way of the passes that rewrite: before them, every
function definition whose rewritten nodes come out of a macro expansion is
replaced by Clang's macro-expanded rendering of it.

Invariant of the output: in every function definition of the main file,
every node the later passes rewrite (cps calls, calls to cpc_need_cont
functions, spawns, and in cps functions `return`, `continue` and local
declarations) is written in the file, not produced by a macro expansion.
"""
import bisect
import re

from . import cps_free
from . import frontend as fe
from .clang_types import is_cps_function_type
from .analysis.gnu_attributes import is_need_cont_call
from .analysis.func import func, is_local_var, var_init
from .analysis.syntax import ancestors, args_of, is_cps_call, parents_of, walk
from .cursors import kids, place
from . import rewrite as rw
from . import reprint

K = fe.K


def needs_expansion(u, f):
    if f.body is None:
        return False
    if not u.macro_ranges():
        return False
    a, b = f.body.extent.start.offset, f.body.extent.end.offset
    if not any(s >= a and t <= b for (s, t) in u.macro_ranges()):
        return False
    for c in f.cps_calls + f.need_cont_calls + f.spawns:
        if u.in_macro(c) is not None:
            return True
    if cps_call_under_a_node_from_a_macro(u, f):
        return True
    # inside spawned statements too: they become cps functions of their own
    # only later, after this pass
    for sp in f.spawns:
        for n, p in walk(sp, skip_spawn=False):
            if n.kind == K.CALL_EXPR and (is_cps_call(n) or is_need_cont_call(n)) \
                    and u.in_macro(n) is not None:
                return True
    if f.is_cps and copied_text_is_cut(u, f):
        return True
    rewrites_locals = f.is_cps or bool(f.spawns)
    for n, p in near_macros(u, f.body):
        k = n.kind
        if f.is_cps and k in (K.RETURN_STMT, K.CONTINUE_STMT, K.VAR_DECL,
                              K.LABEL_STMT, K.GOTO_STMT, K.BREAK_STMT) \
                and u.in_macro(n) is not None:
            return True
        if k != K.DECL_REF_EXPR:
            continue
        d = n.referenced
        if d is None:
            continue
        if d.kind == K.FUNCTION_DECL:
            if not is_cps_function_type(d.type):
                continue
        elif not (rewrites_locals and is_local_var(d, f.c)) and \
                not (f.spawns and d.kind == K.VAR_DECL and
                     d.semantic_parent is not None and d.semantic_parent == f.c):
            continue
        r = u.written(n)
        if r is None:
            return True          # spelled in a macro's body: rewrite the expansion
        if r != (n.extent.start.offset, n.extent.end.offset):
            # in a macro argument: a rewrite would show in a stringified copy
            m = u.in_macro(n)
            if m is not None and u.stringifying_macro_in(m[0], m[1]):
                return True
    return False


def near_macros(u, root):
    """(node, parent) in preorder for the nodes of root's subtree, sizeof's
    operands and spawned statements included, that may come out of a macro
    or lie in another file: in code of the main file that includes no other
    file (Unit.in_plain_main_code), a subtree whose range touches no macro
    invocation is spelt where it stands, and is passed by."""
    where = place(root)
    if where is None or not u.in_plain_main_code(root):
        yield from walk(root, skip_spawn=False, into_sizeof=True)
        return
    sub, i = where
    nodes, parents, ends = sub.nodes, sub.parents, sub.ends
    j, e = i, ends[i]
    touches = u.touches_macro
    while j < e:
        n = nodes[j]
        x = n.extent
        a, b = x.start.offset, x.end.offset
        if a < b and not touches(a, b):
            j = ends[j]
            continue
        yield n, (parents[j] if j != i else None)
        j += 1


def cps_call_under_a_node_from_a_macro(u, f):
    """Whether a cps call lies in a statement that may start in a macro's
    body: `#define DEBUG if (debug) (void) printf` then `DEBUG("%s",
    name(x));`, where the `if` and its branch start in DEBUG and end in the
    file.  Hoisting the call rewrites them, which their text cannot show.
    (Clang's extent, even its spelling location, puts their start at the
    macro's name: what is seen is a statement that starts where an
    invocation starts and ends after it.  A declaration whose type is a
    macro, `bool c = f();`, looks the same and is left alone: its text is
    the declaration's.)"""
    calls = f.cps_calls + f.need_cont_calls
    if not calls:
        return False
    ends = dict(u.macro_ranges())
    parents = parents_of(f.body)
    for c in calls:
        for n in ancestors(c, parents):
            a, b = n.extent.start.offset, n.extent.end.offset
            if a in ends and b > ends[a] and n.kind.is_statement() and \
                    n.kind != K.DECL_STMT:
                return True
    return False


def cut(u, n):
    """Clang's extent of n ends at the start of a macro invocation (its
    last token comes out of the macro): the bytes of the extent are not
    the expression."""
    a, b = n.extent.start.offset, n.extent.end.offset
    if b <= a:
        return True
    ranges = u.macro_ranges()          # sorted: the first starting at b or after
    i = bisect.bisect_left(ranges, (b,))
    return i < len(ranges) and ranges[i][0] == b


def copied_text_is_cut(u, f):
    """An expression whose text the later passes copy (a returned value,
    the arguments of a cps call, the initialiser of a local, which boxing
    and the splitting of declarations copy) ends in a macro expansion."""
    for n, p in walk(f.body, skip_spawn=False):
        if n.kind == K.RETURN_STMT:
            ch = kids(n)
            if ch and cut(u, ch[0]):
                return True
        elif n.kind == K.VAR_DECL and p is not None and p.kind == K.DECL_STMT:
            init = var_init(u, n)
            if init is not None and cut(u, init):
                return True
    for c in f.cps_calls:
        if any(cut(u, x) for x in args_of(c)):
            return True
    return False


CPS_ATTRIBUTE_RE = re.compile(r'\s*__attribute__\(\(btf_type_tag\("cpc_cps"\)\)\)\s*')


def cps_values_in_macros(u, c):
    """A declaration at file scope that uses a cps function as a value where
    a macro spells it (`{ [OP_add] = op_add }` out of an X-macro): the
    emitter must rewrite that name, so the declaration is re-printed."""
    for n, p in walk(c, skip_spawn=False):
        if n.kind == K.DECL_REF_EXPR:
            d = n.referenced
            if d is not None and d.kind == K.FUNCTION_DECL and \
                    is_cps_function_type(d.type) and u.written(n) is None:
                return True
    return False


def expand_macros(u):
    """Return [(a, b, text)] edits replacing functions that need it by
    their macro-expanded rendering.  One macro invocation may define
    several functions (X-macros): then everything it declares is re-printed
    together, in order, in one edit of its text."""
    ranges = []
    for c in cps_free.code_defs(u):
        f = func(u, c)
        if needs_expansion(u, f):
            r = (c.extent.start.offset, c.extent.end.offset)
            if r not in ranges:
                ranges.append(r)
    for c in u.main_top():
        if c.kind == K.VAR_DECL and cps_values_in_macros(u, c):
            r = (c.extent.start.offset, c.extent.end.offset)
            if r not in ranges:
                ranges.append(r)
    if not ranges:
        return []
    # what each range declares, in order (one walk of the unit for them all)
    declared = {r: [] for r in ranges}
    for c in u.main_top():
        r = (c.extent.start.offset, c.extent.end.offset)
        if r in declared:
            declared[r].append(c)
    edits = []
    for a, b in sorted(ranges):
        parts = []
        verbatim = []
        for c in declared[(a, b)]:
            if c.kind == K.FUNCTION_DECL and c.is_definition():
                # (each function of an X-macro on the macro's line, not on
                # the lines the rendering of what precedes it takes)
                parts.append((rw.line_directive(u, c.extent.start.offset) + '\n'
                              if parts else '') + reprint.function(u, c, verbatim))
            else:
                # (kept as written by the emitter: the cps tag spelt `cps`,
                # the macro of the runtime's header)
                parts.append(CPS_ATTRIBUTE_RE.sub(' cps ', reprint.declaration(u, c, verbatim))
                             + ';')
                verbatim.append('cps')
        # the rendering spells the cps tag as an attribute Clang reads back
        text = '\n'.join(parts)
        push, pop = reprint.shield_macros(u, text, verbatim)
        if push:
            push = SHIELD_COMMENT + '\n' + push
        new = '\n' + rw.directives_in(u, a, b) + push + rw.line_directive(u, a) + '\n' + \
            text + '\n' + pop + rw.resync(u, b)
        edits.append((a, b, new))
    return edits


# before the directives that keep a rendering's names from being expanded again
SHIELD_COMMENT = '/* written with its macros expanded: none of its names is a macro here */'


def check_expanded(u):
    """The invariant of expand_macros on its output: no function has a node
    that a later pass rewrites inside a macro expansion."""
    return [u.diag(c, 'function `%s` still has a node that a later pass rewrites inside '
                   'a macro expansion' % c.spelling)
            for c in u.function_defs() if needs_expansion(u, func(u, c))]
