"""What the emitter decides about a cps function before writing it: its
parameters and result as the generated items declare them (`Signature`), its
frame (`FrameLayout`: the variables live across some call, those stored once
at entry, what each resume point restores).
"""
from .. import frontend as fe
from ..cursors import kids
from ..libclang import integer_value, is_inline
from ..analysis.gnu_attributes import attributes_text, code_attributes_text, function_attributes
from ..analysis.dataflow import assigned_anywhere
from ..analysis.func import old_style
from .. import ctype
from ..clang_types import Decayed, TK_ENUM, TK_POINTER, strip_sugar, tkind
from .declarations import HOLDER_ATTRIBUTES, entry_param, param_decls, written
from .codegen import SHARED_DEFER_MAX
from .typetexts import declared

K = fe.K


def parameter_bounds(em, f):
    """Statements evaluating the size expressions written in the array
    parameters of f (`int b[n++]`), which C evaluates on entry (C11 6.9.1p10)
    although the parameter is a pointer: once, where the body is entered
    from the entry, before the frame stores the parameters.  Constants are
    left out."""
    out = []
    for p in kids(f.c):
        if p.kind != K.PARM_DECL:
            continue
        for x in kids(p):
            if not x.kind.is_expression() or integer_value(x) is not None:
                continue
            r = em.u.written(x)
            if r is None:
                raise fe.Diags([em.diag(x, 'the size of parameter `%s` comes out of a macro '
                                        'expansion' % p.spelling)])
            out.append('(void)(%s);' % em.u.text[r[0]:r[1]].decode('utf-8', 'surrogateescape'))
    return out


class Signature:
    """A cps function's parameters and result as the generated items
    declare them."""

    def __init__(self, em, f):
        self.params = param_decls(f.c)
        for n, t in self.params:
            if ctype.is_variably_modified(t):
                # (its bounds would be evaluated again, with other values,
                # each time the body is entered at a resume point)
                raise fe.Diags([em.diag(f.c, 'cps function `%s` cannot take `%s`, a parameter '
                                        'of variably modified type (a variable-length array); '
                                        'pass a pointer of a fixed type and index it by hand'
                                        % (f.name, n))])
        try:
            # parameter lists keep the written type (C adjusts it, and gcc's
            # va_arg wants a `va_list` parameter); fields hold the adjusted one
            self.pdecls = [ctype.declare(written(t), n) for (n, t) in self.params]
            old = old_style(em.u, f.c)
            # (an old-style entry takes the promoted arguments; its call of
            # the body, which is prototyped, converts them to the parameters)
            self.entry_pdecls = [entry_param(t, n, old) for (n, t) in self.params]
            self.pfields = [ctype.declare_field(t, n) + ';' for (n, t) in self.params]
            # the body restores parameters at resume points: not const there
            self.bdecls = [ctype.declare(written(t), n, strip_const=True)
                           for (n, t) in self.params]
        except ctype.Unnameable as e:
            raise fe.Diags([em.diag(f.c, 'parameter type cannot be named: %s' % e)])
        self.pnames = [n for (n, t) in self.params]
        self.bounds = parameter_bounds(em, f)
        self.rt = f.c.type.get_result()
        self.void = ctype.is_void(self.rt)
        # the attributes of every function made of f's code; the deferred
        # path is cold whatever f is
        self.code = code_attributes_text(em.u, f.c)
        self.deferred_code = code_attributes_text(em.u, f.c, frequency=False)
        found = function_attributes(em.u, f.c)
        # the function holding the user's code: the body, or the entry
        self.holder = attributes_text(t for n, t in found if n in HOLDER_ATTRIBUTES)
        # what the entry's declaration starts with: a static function's
        # `inline` too, which is about its calls (an inline definition of
        # an external function would name the static body: it stays a
        # definition)
        static = f.c.storage_class == fe.ci.StorageClass.STATIC
        self.lead = ('static ' if static else '') + ('inline ' if static and is_inline(f.c) else '') + \
            em.entry_attributes(f.c, found) + self.code
        # the deferred path through the runtime's cpc_deferN (codegen.budget),
        # or None: f__defer of its own, for other parameters and for code
        # with attributes (a target, a canary asked for) that the shared
        # path would not have
        words = [as_word(t, n) for (n, t) in self.params]
        self.words = words if (len(words) <= SHARED_DEFER_MAX and None not in words and
                               not self.deferred_code.strip()) else None


# The integer types a parameter may have to go through the shared deferred
# path as a word (its size at most a cpc_word's: no __int128)
WORD_INTEGERS = {'BOOL', 'CHAR_U', 'UCHAR', 'CHAR16', 'CHAR32', 'USHORT', 'UINT', 'ULONG',
                 'ULONGLONG', 'CHAR_S', 'SCHAR', 'WCHAR', 'SHORT', 'INT', 'LONG', 'LONGLONG'}


def as_word(t, name):
    """Parameter `name` of type t converted to cpc_word, its bits kept in
    the low bytes the size of its field (cpc_deferral), or None when t is
    no integer or pointer type of at most 8 bytes (a floating, atomic,
    vector or aggregate type, or a typedef'd array, which stays written as
    one)."""
    if isinstance(t, Decayed):
        if ctype.typedef_of(t.written) is not None:
            return None
        return '(cpc_word)(__UINTPTR_TYPE__)(%s)' % name
    u, _ = strip_sugar(t)
    u = u.get_canonical()
    k = tkind(u)
    if k == TK_POINTER:
        return '(cpc_word)(__UINTPTR_TYPE__)(%s)' % name
    if (k == TK_ENUM or u.kind.name in WORD_INTEGERS) and 0 < u.get_size() <= 8:
        return '(cpc_word)(%s)' % name
    return None


class FrameLayout:
    """The frame: one per invocation, pushed at entry and popped on the way
    out, holding every variable live across some call (`fields`, in
    declaration order, parameters first).

    Lifting (--dataflow=lifting): the body keeps its variables in C locals.
    Parameters the body never assigns (`fixed`) are stored once, at entry;
    resume point `index` restores `site_vars[index]`, and its call site
    stores those of them that may have changed since the frame last held
    them (`site_stores[index]`, lift.py).

    Frame-resident variables (--dataflow=frame, `resident_mode`): a
    variable live across some call lives in its field, read and written
    there in place (`cpc_f->x`, resident.py), as C++20 coroutines keep
    theirs: its call sites store nothing and its resume points restore
    nothing; a resident parameter is copied in once, at entry (it is in
    `fixed`).  Not resident, and lifted as above: a variable whose address
    is taken (`taken`: in a packed frame the pointer to its field could be
    misaligned), a volatile one (a field drops the qualifier) and one that
    asks for an alignment (its field has the type's).  `resident`: {key:
    Var}.

    The variables a chunked body carries from one chunk to the next
    (`carried`, chunks.py) have a field too."""

    def __init__(self, em, f, cfg, sites, lift, carried=(), resident_mode=False, taken=()):
        # (as bits: a large function has thousands of sites, each with
        # thousands of variables)
        masks = {site.index: lift.frame_mask(site) for site in sites}
        union = 0
        for m in masks.values():
            union |= m
        bits = cfg.bits
        carried_keys = [v.key for v in carried]
        ordered = lift.vars_of(union | bits.mask(carried_keys)) if sites else []
        self.resident = {}
        if resident_mode:
            self.resident = {v.key: v for v in ordered
                             if v.key not in taken and may_reside(em, v)}
        lifted = ~bits.mask(self.resident)
        self.site_vars = {i: lift.vars_of(m & lifted) if m & lifted else []
                          for i, m in masks.items()}
        assigned = assigned_anywhere(cfg) if sites else set()
        self.fixed = [v for v in ordered
                      if v.is_param and (v.key not in assigned or v.key in self.resident)]
        self.fixed_keys = set(v.key for v in self.fixed)
        # resident parameters never assigned: their C value is always the
        # frame's, which the resume functions pass (gdb's own expressions,
        # `print n`, `break ... if n == 5`, read the C parameter)
        self.constant_params = {v.key for v in self.fixed
                                if v.key in self.resident and v.key not in assigned}
        # what each call site stores: what its resume point restores, less
        # what the frame already holds (lift.py)
        changed = lift.stored(sites, self.site_vars, self.fixed_keys) \
            if any(self.site_vars.values()) else {s.index: () for s in sites}
        self.site_stores = {site.index: [v for v in self.site_vars[site.index]
                                         if v.key in changed[site.index]]
                            for site in sites}
        self.fields = []
        for v in ordered:
            try:
                self.fields.append(declared(em._type_texts, ctype.declare_field, v.type,
                                            v.name) + ';')
            except ctype.Unnameable as e:
                # (at the first site that saves it)
                one = bits.mask([v.key])
                site = next((s for s in sites if masks[s.index] & one), sites[0])
                raise fe.Diags([em.diag(site.call, 'a variable live across this cps call '
                                        'has a type that cannot be named at file scope '
                                        '(%s); declare the type at file scope' % e)])


def may_reside(em, v):
    """Whether variable v may be read and written in its frame field in
    place (FrameLayout): not volatile, no alignment of its own."""
    if v.type.get_canonical().is_volatile_qualified():
        return False
    return not any(a.kind == K.ALIGNED_ATTR for a in kids(v.cursor))
