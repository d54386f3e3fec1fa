"""Frame-resident variables (--dataflow=frame, the default of cpcc -O1 and
above; docs/abi.md, "Frame-resident variables"): the uses of a cps
function's variables that live in its frame, rewritten to read and write
the frame in place.

Invariant of the edits `uses(em, f, cfg, resident, small)`: every reference
to a variable of `resident` (FrameLayout.resident) in the body is
`cpc_f->x`, and every declaration of one (other than a call site's, which
the call site writes) assigns its initialiser there instead of declaring
it (boxing.decl_text, as the environments of boxing.py are written).
`cpc_f` points to the frame wherever the body runs: the body sets it when
it pushes the frame and again at each resume point (the continuation may
have moved while the callee ran), and nothing else moves the continuation
between two cps calls.
"""
from .. import frontend as fe
from .. import rewrite as rw
from ..analysis.func import vkey
from ..analysis.syntax import walk
from ..boxing import decl_text, ref_sub
from ..cursors import kids
from .declarations import EditList

K = fe.K

PREFIX = 'cpc_f->'


def place(v):
    """Where resident variable v is read and written."""
    return PREFIX + v.name


def for_headers_shared(f):
    """Keys of the variables a `for` header declares together with others
    (`for (int i = 0, j = n; ...)`): they stay C variables, lifted, since a
    header has room for one declaration or one expression, not for both."""
    out = set()
    for n, p in walk(f.body, skip_spawn=False):
        if n.kind == K.DECL_STMT and p is not None and p.kind == K.FOR_STMT:
            vs = kids(n)
            if len(vs) > 1:
                out.update(vkey(x) for x in vs if x.kind == K.VAR_DECL)
    return out


def uses(em, f, cfg, resident, small):
    """`small` (an EditList) with the edits of the module docstring added:
    a new EditList.  An insertion where a reference starts (the
    continuation argument of a cpc_need_cont call, `g(x)` -> `g(cpc_k, x)`)
    becomes part of the reference's edit, which would otherwise hide it."""
    u = em.u
    keys = resident.keys()
    # (by identity: the graph's statements are the walk's objects, one per
    # node of the parse; node_id would ask libclang for their extents)
    sites = {id(s.stmt) for s in cfg.sites}
    refs, decls = [], []
    a0, b0 = f.body.extent.start.offset, f.body.extent.end.offset
    # (a body no macro expands in spells each reference where its extent
    # says: u.written, which asks libclang, is for the others)
    plain = not any(s < b0 and a0 < t for (s, t) in u.macro_ranges())
    for n, p in walk(f.body, skip_spawn=False, into_sizeof=True):
        k = n.kind
        if k == K.DECL_REF_EXPR:
            v = f.var_of(n)
            if v is not None and v.key in keys:
                e = n.extent
                a, b = e.start.offset, e.end.offset
                if plain and u.text[a:b] == v.name.encode('utf-8', 'surrogateescape'):
                    refs.append((a, b, place(v)))
                else:
                    refs.append(ref_sub(u, n, place(v)))
        elif k == K.DECL_STMT and id(n) not in sites and \
                any(x.kind == K.VAR_DECL and vkey(x) in keys for x in kids(n)):
            decls.append((n, p))
    if not refs and not decls:
        return small
    inserts = {e[0]: e for e in small if e[0] == e[1]}
    folded = set()
    out = []
    for (a, b, t) in refs:
        ins = inserts.get(a)
        if ins is not None:
            folded.add(id(ins))
            t = ins[2] + t
        out.append((a, b, t))
    edits = EditList([e for e in small if id(e) not in folded] + out)

    def text(c, a=None, b=None):
        if a is None:
            a, b = c.extent.start.offset, c.extent.end.offset
        return em.text(a, b, edits)
    # (inner declarations first: an outer one's text contains theirs)
    for n, p in reversed(decls):
        a, b = rw.start(n), rw.full_end(u, n)
        edits.append((a, b, rw.fix_lines(u, a, b, decl_text(
            u, f, n, keys, prefix=PREFIX, text=text))))
    return edits
