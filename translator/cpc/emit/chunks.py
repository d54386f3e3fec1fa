"""Chunks: the body of a cps function with many resume points written as
several C functions (docs/abi.md, "chunked body").

Invariant: `plan(em, f, cfg, sites, lift)` is None (the body stays one C
function) or a Plan cutting the body between two of its top-level
statements every CHUNK_SITES resume points or so.  Chunk 1 is the body
(named F in the C, codegen.body_name); chunk K > 1 is F__body_K(cpc_k, cpc_resume), which declares the parameters
and the top-level variables of the chunks before it, dispatches to its own
resume points, and otherwise (cpc_resume 0: entered from chunk K - 1)
restores the variables carried across the cut.  Chunk K - 1 ends by storing
them in the frame and calling F__body_K, a tail call.  A cut is a resume
point without a call: it carries the variables live and possibly
initialised there, in scope there (parameters and top-level variables),
through the frame, as a call site does: those live and possibly
initialised where the statement before the cut falls through to the one
after it.

Why: gcc's analyses of one C function (value ranges, points-to, SSA
updates, register liveness) grow with the square of its resume labels, all
reached from one dispatch `switch`; in functions of a bounded number of
them gcc's time grows with the function's length (bench/README.md).

A body is cut only where nothing but the frame can go from one chunk to
the next: it has no labels or gotos (a jump cannot leave a C function),
no preprocessor conditional inside it (a cut would split it), its
top-level declarations declare only automatic variables of scalar type
that can be named at file scope, as do its parameters, none written as an
array (they are declared again in each later chunk and copied), and no
address of a parameter or top-level variable is taken (a pointer to a
variable copied into the next chunk would point to the old copy).  A body that does not qualify stays one function."""
import bisect
import re

from .. import frontend as fe
from .. import ctype
from .. import rewrite as rw
from ..clang_types import Decayed
from ..cursors import kids
from ..analysis.func import leading_label_declarations, vkey
from .declarations import param_decls
from . import codegen as cg
from . import preamble
from .body_nodes import body_nodes

K = fe.K

# A body is cut when it has more resume points than CHUNKED_ABOVE, into
# chunks of about CHUNK_SITES: a 2,000-line function with a call on every
# line took gcc -O2 4.1 s as one function, 1.9 s in chunks of 64 to 200
# resume points (2.0 s by 32, 2.4 s by 16: each chunk costs a function).
CHUNKED_ABOVE = 128
CHUNK_SITES = 64
# (a chunked body is a large one: its chunks are CPC_LARGE_FN)
assert CHUNKED_ABOVE >= preamble.LARGE_BODY_SITES

# a directive other than `#line` (which the passes write) in the body
CONDITIONAL_RE = re.compile(rb'^[ \t]*#[ \t]*(?!line\b)[a-z]', re.M)


class Cut:
    """Where chunk `number` starts: before top-level statement `stmt` (at
    offset `at`), carrying `carried` (Vars), with `declared` (Vars: the
    top-level variables of the chunks before it) declared again."""

    def __init__(self, number, stmt, carried, declared):
        self.number = number
        self.stmt = stmt
        self.at = rw.start(stmt)
        self.carried = carried
        self.declared = declared


class Plan:
    def __init__(self, cuts, chunk_of):
        self.cuts = cuts            # [Cut], in order
        self.chunk_of = chunk_of    # {resume point index: chunk number}

    def carried(self):
        """Every variable some cut carries (they need a frame field)."""
        out = {}
        for c in self.cuts:
            for v in c.carried:
                out.setdefault(v.key, v)
        return list(out.values())


def _top_level_vars(f, items):
    """[(item index, Var)] of the top-level declarations, or None when one
    declares something a later chunk could not declare again."""
    out = []
    for i, s in enumerate(items):
        if s.kind != K.DECL_STMT:
            continue
        for d in kids(s):
            if d.kind != K.VAR_DECL:
                return None
            v = f.vars.get(vkey(d))
            if v is None or d.storage_class not in (fe.ci.StorageClass.NONE,
                                                    fe.ci.StorageClass.REGISTER):
                return None
            if any(x.kind.is_attribute() for x in kids(d)):
                return None
            out.append((i, v))
    return out


def _nameable_scalar(v):
    if not ctype.is_scalar(v.type):
        return False
    try:
        ctype.declare(v.type, v.name, strip_const=True)
    except ctype.Unnameable:
        return False
    return True


def _addresses_taken(f, keys):
    """Whether the address of a variable of `keys` (scalars: `&x` is the
    only way to it) is taken somewhere."""
    for n in body_nodes(f.body).addr_of:
        x = kids(n)[0]
        while x.kind in (K.PAREN_EXPR, K.UNEXPOSED_EXPR) and len(kids(x)) == 1:
            x = kids(x)[0]
        if x.kind == K.DECL_REF_EXPR:
            v = f.var_of(x)
            if v is not None and v.key in keys:
                return True
    return False


def _items_of_nodes(cfg):
    """[the top-level statement of each node of cfg (by id), -1 before the
    first]: the nodes are numbered in the order of the statements, whose
    first nodes cfg.items are (one sweep, not a search per edge)."""
    out = []
    firsts, k = cfg.items, -1
    for i in range(len(cfg.nodes)):
        while k + 1 < len(firsts) and firsts[k + 1] <= i:
            k += 1
        out.append(k)
    return out


def plan(em, f, cfg, sites, lift):
    """The chunks of f's body (module docstring), or None."""
    if len(sites) <= CHUNKED_ABOVE:
        return None
    u = em.u
    body = f.body
    if leading_label_declarations(u, body):
        return None
    if CONDITIONAL_RE.search(u.text, body.extent.start.offset, body.extent.end.offset):
        return None
    if body_nodes(body).jump:
        return None
    items = kids(body)
    tops = _top_level_vars(f, items)
    if tops is None:
        return None
    # (a parameter written as an array or a function, `va_list` above all,
    # is declared as written in the lists of the generated functions)
    if any(isinstance(t, Decayed) for _, t in param_decls(f.c)):
        return None
    params = [v for v in f.vars.values() if v.is_param]
    candidates = params + [v for _, v in tops]
    if not all(_nameable_scalar(v) for v in candidates):
        return None
    if _addresses_taken(f, {v.key for v in candidates}):
        return None
    spans = []
    for s in items:
        w = u.written(s)
        if w is None:
            return None
        spans.append((rw.start(s), rw.full_end(u, s)))
    if any(a[1] > b[0] for a, b in zip(spans, spans[1:])):
        return None
    starts = [a for a, _ in spans]

    def item_of(offset):
        i = bisect.bisect_right(starts, offset) - 1
        return i if i >= 0 and offset < spans[i][1] else None
    per_item = [[] for _ in items]      # the resume points of each statement
    for site in sites:
        i = item_of(site.stmt.extent.start.offset)
        if i is None:
            return None
        per_item[i].append(site.index)
    if len(cfg.items) != len(items):
        return None
    # what flows into statement i: along the edges from the nodes of the
    # statements before it (no jumps: from the last one with nodes, falling
    # through; the entry's, node 0, when none has)
    bits = cfg.bits
    live_in, init_out = lift.live_in.masks, lift.init_out.masks
    into = [0] * (len(items) + 1)
    item_at = _items_of_nodes(cfg)
    for n in cfg.nodes:
        a = item_at[n.id]
        for t in n.succ:
            b = item_at[t.id]
            if b > a:
                m = live_in[t.id] & init_out[n.id]
                for j in range(a + 1, b + 1):
                    into[j] |= m
    cuts, chunk_of = [], {}
    number, count = 1, 0
    remaining = len(sites)
    for i, idx in enumerate(per_item):
        if count >= CHUNK_SITES and remaining > CHUNK_SITES // 2:
            declared = [v for j, v in tops if j < i]
            keys = bits.keys_of(into[i] & bits.mask(v.key for v in params + declared))
            carried = sorted((v for v in params + declared if v.key in keys),
                             key=lambda v: (not v.is_param, v.cursor.location.offset))
            number += 1
            cuts.append(Cut(number, items[i], carried, declared))
            count = 0
        for x in idx:
            chunk_of[x] = number
        count += len(idx)
        remaining -= len(idx)
    if not cuts:
        return None
    return Plan(cuts, chunk_of)
