"""Which locals of a cps function must live in its heap environment: those
whose address may be retained (taken other than as the argument of a
function known not to keep it: `cpc_no_retain`, `#pragma cpc_no_retain`,
the builtin list below) while in scope at a cps call, local arrays live
across a cps call, and with --dataflow=environments every variable live
across one.  Boxing moves them; its invariant check asks the same question
of its output."""
import re

from .. import frontend as fe
from ..clang_types import TK_POINTER, strip_sugar, tkind
from ..cursors import UO, kids, unop
from .. import ctype
from .gnu_attributes import has_annotation
from .cfg import function_graph
from .dataflow import liveness
from .syntax import callee_decl, is_cps_call, is_part_of, walk


K = fe.K

NO_RETAIN_BUILTIN = set('''
memcpy memmove memset memcmp bcopy bzero explicit_bzero
__builtin_memcpy __builtin_memmove __builtin_memset __builtin_memcmp __builtin_strlen
strlen strnlen strcmp strncmp strcasecmp strncasecmp strcpy strncpy strcat strncat
strcoll strxfrm strspn strcspn stpcpy stpncpy strdup strndup
printf fprintf sprintf snprintf vprintf vfprintf vsprintf vsnprintf dprintf
scanf fscanf sscanf vscanf vfscanf vsscanf puts fputs fwrite fread fgets
read write pread pwrite readv writev send recv sendto recvfrom sendmsg recvmsg
atoi atol atoll atof strtol strtoul strtoll strtoull strtod strtof strtold
gettimeofday time clock_gettime nanosleep cpc_gettimeofday cpc_time
stat fstat lstat open close poll select getsockopt setsockopt bind connect
accept accept4 getsockname getpeername inet_pton inet_ntop pipe socketpair
qsort bsearch free perror sigaction sigprocmask localtime_r gmtime_r
cpc_vla_free
'''.split())

PRAGMA_RE = re.compile(rb'#\s*pragma\s+cpc_no_retain\s*\(([^)]*)\)')


def pragma_no_retain(text):
    names = set()
    for m in PRAGMA_RE.finditer(text):
        for part in m.group(1).split(b','):
            part = part.strip().strip(b'"').strip()
            if part:
                names.add(part.decode())
    return names


def no_retain(decl, names):
    if decl is None:
        return False
    if decl.spelling in NO_RETAIN_BUILTIN or decl.spelling in names:
        return True
    return has_annotation(decl, 'cpc_no_retain')


def escaping_addresses(f, names, every=False):
    """Var keys whose address may be retained; with `every`, those whose
    address is taken at all (what may not live in a packed frame, read in
    place: a pointer to a packed member may be misaligned)."""
    out = set()
    refs = [(n, p) for n, p in walk(f.body, skip_spawn=False) if n.kind == K.DECL_REF_EXPR]
    parent = _parent_in_listing
    if any('place' not in n.__dict__ for n, _ in refs):
        # (a subtree listed apart: the walk's own parents)
        parents = {id(n): p for n, p in walk(f.body, skip_spawn=False)}

        def parent(n):
            return parents.get(id(n))

    def transparent(p, n):
        if p is None:
            return False
        if p.kind == K.PAREN_EXPR:
            return True
        if p.kind == K.UNEXPOSED_EXPR and len(kids(p)) == 1:
            return True
        if p.kind == K.CSTYLE_CAST_EXPR:
            return True
        return False

    for n, p in refs:
        v = f.var_of(n)
        if v is None:
            continue
        arr = v.is_array
        # climb the lvalue: . members, subscripts of arrays, parens, the
        # parts of a complex number (GNU's __real__ and __imag__)
        cur = n
        par = parent(cur)
        while par is not None:
            if par.kind == K.PAREN_EXPR or is_part_of(par):
                pass
            elif par.kind == K.MEMBER_REF_EXPR and kids(par)[0] == cur and \
                    tkind(strip_sugar(cur.type)[0]) != TK_POINTER:
                arr = ctype.is_array(par.type)
            elif par.kind == K.UNEXPOSED_EXPR and len(kids(par)) == 1 and arr:
                # array decay: the address escapes unless used at once
                gp = parent(par)
                if gp is not None and gp.kind == K.ARRAY_SUBSCRIPT_EXPR:
                    # a[i]: an element, an lvalue in a's storage (its address
                    # may be taken in turn: &a[i])
                    cur = gp
                    arr = ctype.is_array(gp.type)
                    par = parent(cur)
                    continue
                cur = par
                break
            elif par.kind == K.ARRAY_SUBSCRIPT_EXPR and kids(par)[0] == cur and \
                    ctype.is_array(cur.type):
                arr = ctype.is_array(par.type)
            else:
                break
            cur = par
            par = parent(cur)
        par = parent(cur)
        taken = False
        if par is not None and par.kind == K.UNARY_OPERATOR and unop(par) == UO['AddrOf']:
            cur = par
            taken = True
        elif arr and cur.kind == K.UNEXPOSED_EXPR:
            taken = True
        if not taken:
            continue
        if every:
            out.add(v.key)
            continue
        # where does the address go?
        par = parent(cur)
        while transparent(par, cur):
            cur = par
            par = parent(cur)
        if par is not None:
            if par.kind == K.ARRAY_SUBSCRIPT_EXPR and kids(par)[0] == cur:
                continue
            if par.kind == K.UNARY_OPERATOR and unop(par) == UO['Deref']:
                continue
            if par.kind == K.MEMBER_REF_EXPR:
                continue
            if par.kind == K.CALL_EXPR and kids(par)[0] != cur and \
                    not is_cps_call(par) and no_retain(callee_decl(par), names):
                continue
        out.add(v.key)
    return out


def _parent_in_listing(n):
    """n's parent in the subtree listed with it (cursors.Subtree), without
    a map of the whole body: a reference's lvalue is climbed a few levels,
    never above its statement."""
    sub, j = n.__dict__['place']
    return sub.parents[j]


def addresses_taken(f):
    """Var keys of f whose address is taken anywhere (the frame keeps them
    as copies: --dataflow=frame, emit/frame.py)."""
    return escaping_addresses(f, set(), every=True)


def boxed_vars(u, f, names, environments=False):
    if f.body is None or not f.cps_calls:
        return []
    esc = escaping_addresses(f, names)
    if not environments and not esc and \
            not any(v.is_array for v in f.vars.values()):
        return []       # (lifting boxes only what escapes, and arrays live across a call)
    cfg = function_graph(f)
    live_in, _ = liveness(cfg)
    bits = cfg.bits
    esc = bits.mask(esc)
    arrays = bits.mask(k for k, v in f.vars.items() if v.is_array)
    boxed = 0
    for site in cfg.sites:
        scope = site.scope_mask
        boxed |= scope & esc
        r = site.resume_node
        across = live_in.masks[r.id] & ~bits.mask(r.defs)
        boxed |= scope & across if environments else scope & arrays & across
    boxed = bits.keys_of(boxed) & f.vars.keys()
    return [f.vars[k] for k in sorted(boxed, key=lambda k: k[0])]




def _copied_by_memcpy(lit, parent):
    """`lit` is the source of a `__builtin_memcpy`, `&(T){...}` (how boxing
    writes a boxed literal or a boxed initialiser: a copy, not a retention)."""
    n = lit
    p = parent(n)
    while p is not None and (p.kind == K.PAREN_EXPR or p.kind == K.CSTYLE_CAST_EXPR or
                             (p.kind == K.UNEXPOSED_EXPR and len(kids(p)) == 1) or
                             (p.kind == K.UNARY_OPERATOR and
                              unop(p) == UO['AddrOf'])):
        n = p
        p = parent(n)
    if p is None or p.kind != K.CALL_EXPR:
        return False
    ch = kids(p)
    d = callee_decl(p)
    return d is not None and d.spelling == '__builtin_memcpy' and len(ch) > 2 and ch[2] is n


def _lvalue_within(lit, parent):
    """The largest lvalue inside compound literal `lit`'s storage that
    contains lit: through parentheses, `.member` and subscripts of its
    arrays (`(struct P){...}.v[1]`), so that taking its address (or an
    array decaying) retains the literal."""
    cur = lit
    while True:
        p = parent(cur)
        if p is None:
            return cur
        if p.kind == K.PAREN_EXPR or is_part_of(p) or \
                (p.kind == K.MEMBER_REF_EXPR and kids(p)[0] is cur):
            cur = p
            continue
        if p.kind == K.UNEXPOSED_EXPR and len(kids(p)) == 1 and ctype.is_array(cur.type):
            gp = parent(p)
            if gp is not None and gp.kind == K.ARRAY_SUBSCRIPT_EXPR and kids(gp)[0] is p:
                cur = gp
                continue
        return cur


def boxed_literals(u, f):
    """The compound literals of cps function f that must live in its
    environment: C gives a compound literal the lifetime of its enclosing
    block, so one whose address is taken (or an array, which decays) in a
    block that holds a cps call must survive the suspensions at that call."""
    if f.body is None or not f.cps_calls:
        return []
    calls = [c.extent.start.offset for c in f.cps_calls]
    # (most functions have no compound literal: the map of the parents,
    # a dict entry per node of the body, is made only for one that has)
    lits = [n for n, _ in walk(f.body, skip_spawn=False) if n.kind == K.COMPOUND_LITERAL_EXPR]
    if not lits:
        return []
    parents = {id(n): p for n, p in walk(f.body, skip_spawn=False)}

    def parent(n):
        return parents.get(id(n))

    out = []
    for lit in lits:
        if _copied_by_memcpy(lit, parent):
            continue
        cur = _lvalue_within(lit, parent)
        p = parent(cur)
        addressed = ctype.is_array(cur.type) or (
            p is not None and p.kind == K.UNARY_OPERATOR and unop(p) == UO['AddrOf'])
        if not addressed:
            continue
        block = None
        static = False
        p = parent(lit)
        while p is not None:
            if p.kind == K.VAR_DECL and p.storage_class in (fe.ci.StorageClass.STATIC,
                                                            fe.ci.StorageClass.EXTERN):
                static = True
            if p.kind == K.COMPOUND_STMT and block is None:
                block = p
            p = parent(p)
        if static or block is None:
            continue
        a, b = block.extent.start.offset, block.extent.end.offset
        if any(a <= o < b for o in calls):
            out.append(lit)
    return out
