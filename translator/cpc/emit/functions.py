"""The cps functions as the emitter writes them (docs/abi.md): the generated
items of each (entry, body, bounce, defer, resume functions, frame), its
body with the call sites, resume points and returns rewritten.
"""

from .. import frontend as fe
from ..clang_types import TK_FUNCTIONPROTO, adjusted_param_type, function_type_of, param_types, tkind
from ..analysis.cfg import function_graph
from ..analysis.func import leading_label_declarations, var_init, variably_modified_scopes, vkey
from ..analysis.syntax import args_of, callee_decl, callee_of, has_side_effects, walk
from ..cursors import kids
from .. import ctype
from .. import rewrite as rw
from ..primitives import PRIMITIVES      # (type, default, name) of each parameter after k
from .split import split
from .lift import Lifting
from . import resident
from ..analysis.retain import addresses_taken
from . import chunks
from . import guard
from . import codegen as cg
from . import dead_table
from . import preamble
from .declarations import Declarations, EditList, comment_text, outlined_spawn
from .frame import FrameLayout, Signature
from .body_nodes import body_nodes
from .typetexts import declared, of_type, same_type

K = fe.K


def zero(t):
    if ctype.is_scalar(t):
        return '0'
    try:
        return '(%s){0}' % ctype.declare(t, '', strip_const=True)
    except ctype.Unnameable:
        return '0'


def user_function_name(f):
    """The name C gives the function whose code f holds: an outlined spawned
    statement (`F__spawn_N`, static) is part of F."""
    m = outlined_spawn(f)
    return m.group(1) if m else f.name


def resume_functions(name, sites, stable, chunking, zeros, code, body):
    """The functions through which the thread re-enters the body of cps
    function `name` (`body`) at its resume points `sites`: one per chunk
    when the body has a `stable` frame (cg.dispatch), else one per resume
    point (cg.resume)."""
    chunk_of = chunking.chunk_of if chunking else {}
    if stable:
        return [cg.dispatch(name, zeros, code, body, chunk)
                for chunk in sorted(set(chunk_of.values()) or {1})]
    return [cg.resume(name, s.index, zeros, code, body=body, chunk=chunk_of.get(s.index, 1))
            for s in sites]


def dispatch_chunk(stable, chunking, index):
    """The chunk whose dispatch function resume point `index` goes
    through (a body with a `stable` frame: cg.dispatch), else None."""
    if not stable:
        return None
    return chunking.chunk_of[index] if chunking else 1


def waits(cfg):
    """Whether the function calls cpc_wait: with a frame, it reserves the
    wait's record at its entry (cg.reserve_union), and its waits skip the
    room test (callee_entry)."""
    return any(d is not None and d.spelling == 'cpc_wait'
               for d in (callee_decl(s.call) for s in cfg.sites))


def callee_entry(d, wait_reserved):
    """The C entry a call of cps function `d` calls."""
    if wait_reserved and d.spelling == 'cpc_wait':
        return cg.WAIT_RESERVED
    return cg.entry_name(d.spelling)


def unconst_decls(em, f, cfg, keys, small):
    """A const local restored at a resume point is declared without its
    own `const` (a read-only object cannot be assigned from the frame):
    the declaration is written again from its type."""
    u = em.u
    site_stmts = {id(s.stmt) for s in cfg.sites}    # (the walk's objects: no extent asked)
    for n, p in walk(f.body):
        if n.kind != K.DECL_STMT or id(n) in site_stmts:
            continue
        vs = kids(n)
        if not any(x.kind == K.VAR_DECL and vkey(x) in keys for x in vs):
            continue
        if p is not None and p.kind == K.FOR_STMT and len(vs) > 1:
            raise fe.Diags([em.diag(n, 'a const variable declared with others in a '
                                      '`for` header is live across a cps call; '
                                      'declare it before the loop')])
        out = []
        for v in vs:
            if v.kind != K.VAR_DECL:
                raise fe.Diags([em.diag(n, 'a const variable live across a cps call '
                                          'is declared together with a type; declare '
                                          'the type separately')])
            try:
                d = ctype.declare(v.type, v.spelling, strip_const=vkey(v) in keys)
            except ctype.Unnameable as e:
                raise fe.Diags([em.diag(v, 'the const variable `%s` is live across a '
                                          'cps call and its type cannot be named (%s); '
                                          'name the type' % (v.spelling, e))])
            if v.storage_class == fe.ci.StorageClass.REGISTER:
                d = 'register ' + d
            init = var_init(u, v)
            if init is not None:
                d += ' = ' + em.ctext(init, small)
            out.append(d + ';')
        a, b = rw.start(n), rw.full_end(u, n)
        small.append((a, b, rw.fix_lines(u, a, b, ' '.join(out))))


def callee_params(memo, callee):
    """The parameter types of callee expression `callee` as C adjusts them
    ([] without a prototype), once per callee type in `memo` (the same
    type, the same bytes: a large function calls the same functions at
    thousands of sites)."""
    key = bytes(callee.type)
    r = memo.get(key)
    if r is None:
        ft = function_type_of(callee.type)
        r = memo[key] = [adjusted_param_type(t) for t in param_types(ft)] \
            if ft is not None and tkind(ft) == TK_FUNCTIONPROTO else []
    return r


def param_temp(memo, callee, ptypes, j, name):
    """The declaration of `name`, the temporary of argument j of a call of
    `callee` (ptypes: callee_params), once per callee type in `memo`."""
    key = (bytes(callee.type), j)
    r = memo.get(key)
    if r is None:
        r = memo[key] = ctype.declare_rvalue(ptypes[j], name)
    return r


def result_type(memo, call):
    """split.callee_result(call), looked up once per callee type in `memo`."""
    callee = callee_of(call)
    key = ('result', bytes(callee.type))
    try:
        rt = memo[key]
    except KeyError:
        ft = function_type_of(callee.type)
        rt = memo[key] = ft.get_result() if ft is not None else None
    return rt if rt is not None else call.type


def check_variably_modified_scopes(em, f, sites):
    """A resume point is a label that the body's dispatch jumps to, and
    C forbids jumping into the scope of an identifier of variably
    modified type (C11 6.8.6.1): none may be in scope at a cps call
    that resumes."""
    if not sites:
        return
    scopes = variably_modified_scopes(f.body)
    errs = []
    for site in sites:
        at = site.call.extent.start.offset
        errs += [em.diag(site.call, '`%s` has a variably modified type and is in scope '
                         'at this cps call: a thread cannot resume inside the scope of '
                         'a variable-length array or of a type derived from one; end '
                         'the scope (a block) before the call' % d.spelling)
                 for d, end in scopes if d.extent.end.offset <= at < end]
    if errs:
        raise fe.Diags(errs)


class Functions(Declarations):
    """Writes cps function definitions (`cps_function`)."""

    def cps_function(self, f):
        """Replace cps function f by its generated items (codegen.py) and
        its body, with call sites, resume points and returns rewritten."""
        cfg = function_graph(f)
        sites = split(f, cfg)
        check_variably_modified_scopes(self, f, sites)
        lift = Lifting(f, cfg)
        self.chunking = chunks.plan(self, f, cfg, sites, lift)
        # (the signature's errors first: a parameter it refuses has a type
        # no frame field can have either)
        sig = Signature(self, f)
        layout = self.layout = FrameLayout(
            self, f, cfg, sites, lift, self.chunking.carried() if self.chunking else (),
            self.resident, (addresses_taken(f) | resident.for_headers_shared(f))
            if self.resident and sites else ())
        pre = []
        small = EditList(self.need_cont_edits(f, 'cpc_k', pre))
        frames = []
        small += self.value_edits(f.body, pre)
        if layout.resident:
            small = resident.uses(self, f, cfg, layout.resident, small)
        # prototypes first: the spawn thunks call the functions they declare
        # (the function's own entry too, when it spawns itself)
        self.external_protos(f, pre)
        use = self.use_declaration(f.c)
        if use:
            pre.append(use[2:] + ';')
        entry_prototype = self.entry_prototype_of(f, sig)
        if f.spawns and entry_prototype:
            pre.append(entry_prototype)
        self.spawn_edits(f, small, pre, frames, in_cps=True)
        frames.append(cg.args_struct(f.name, sig.pfields))
        body = cg.body_name(f.name, own=not (use or self.declared_in_headers(f.name)))
        # (a body without resume points keeps its parameters' const)
        bdecls = sig.bdecls if sites else sig.pdecls
        if not f.spawns and entry_prototype:
            pre.append(entry_prototype)
        inline = cg.inline_body(rw.code_bytes(self.u, f.body), len(sites))
        self.large = large = preamble.large_body(len(sites))     # (cpsconv: the preamble)
        pre.append(cg.body_prototype(f.name, body, bdecls, sig.code + sig.holder,
                                     bool(sites), inline=inline, large=large) + ';')
        # the code of the functions around the body: no stack protector when
        # they hold no stack object of the user's (guard.py)
        stub = guard.stub_attribute(f, inline, sig.code)
        self.stub_code = stub + sig.code
        for cut in self.chunking.cuts if self.chunking else ():
            pre.append(cg.chunk_prototype(f.name, cut.number, sig.code + sig.holder, True) + ';')
        if sites:
            frames.append(cg.frame_struct(f.name, layout.fields, cg.stable_frame(len(sites))))
        frame, self.wait_reserved = (cg.frame_name(f.name), waits(cfg)) if sites else (None, False)
        for site in cfg.sites:
            if site.tail:
                small.append(self.tail_call(f, site, frame, small))
        self.body = body
        self.site_edits(f, cfg, sites, layout, lift, sig, frame, pre, small)
        self.return_edits(f, cfg, sig, frame, small)
        deferred = guard.defer_attribute(sig.deferred_code) + sig.deferred_code
        pre.append(cg.bounce(f.name, sig.pnames, deferred, not cfg.sites))  # (calls the entry)
        ret = None if sig.void else ctype.declare_field(sig.rt, 'ret')
        union, need = cg.reserve_union(f.name, bool(sites), ret, self.wait_reserved)
        if union:
            frames.append(union)
        if sig.words is not None:
            pre.append(cg.deferral(f.name, sig.pnames, need))
        else:
            pre.append(cg.defer(f.name, sig.pdecls, need,
                                [ctype.copy('cpc_a->' + n, n, t) for (n, t) in sig.params],
                                deferred))
        # GNU local labels are declared first in the block, before the
        # generated opening
        labels = leading_label_declarations(self.u, f.body)
        for d in labels:
            small.append((rw.start(d), rw.full_end(self.u, d), ''))
        start, bodytext, end = self.user_body(f, small, frame, sig, layout)
        pre.append(cg.entry_calling_body(f.name, body, sig.entry_pdecls, sig.lead + stub, need,
                                         sig.pnames, bool(sites), not cfg.sites, sig.words))
        if sites:
            stable = cg.stable_frame(len(sites))
            push = sig.bounds + cg.frame_push(
                f.name, [ctype.copy('cpc_f->' + v.name, v.name, v.type) for v in layout.fixed],
                sites[0].index if len(sites) == 1 else None, stable, bool(layout.resident))
            opening = cg.body_opening(f.name, [s.index for s in sites
                                               if not self.chunking or
                                               self.chunking.chunk_of[s.index] == 1], push,
                                      self.frame_ptr_used or len(push) > 1, stable)
        else:
            opening = ''.join('    %s\n' % b for b in sig.bounds)
        head = cg.body_prototype(f.name, body, bdecls, sig.code + sig.holder, bool(sites),
                                 definition=True, inline=inline, large=large) + '\n'
        a = f.c.extent.start.offset
        # the body's prototype and dispatch on the function's line
        opening = ''.join(self.text(rw.start(d), rw.full_end(self.u, d), []) + ' '
                          for d in labels) + opening
        head_at = rw.head_offset(self.u, f.c)
        newbody = cg.pin(rw.line_directive(self.u, head_at),
                         (head + '{\n' + opening).rstrip('\n').split('\n')) + '\n' + \
            rw.resync(self.u, start) + bodytext + end
        define, undef = cg.function_name_macros(user_function_name(f))
        specs = f.body.extent.start.offset
        txt = rw.directives_in(self.u, a, specs) + self.tags_declared_in(a, specs) + define + \
            self.generated_prelude(head_at, frames, pre)
        txt += rw.line_directive(self.u, head_at) + '\n'
        e = f.c.extent.end.offset
        self.edits.append((a, e, txt + newbody + '\n' + undef + rw.resync(self.u, e)))

    def declared_in_headers(self, name):
        """Whether a header declares function `name`: the C includes it as
        written, where a cps function's declaration reads as a native one,
        so the body cannot take the name (cg.body_name)."""
        if getattr(self, '_header_functions', None) is None:
            self._header_functions = {c.spelling for c in self.u.top()
                                      if c.kind == K.FUNCTION_DECL and
                                      not self.u.in_main_file(c)}
        return name in self._header_functions

    def site_edits(self, f, cfg, sites, layout, lift, sig, frame, pre, small):
        """The resume functions and the rewritten call sites."""
        lifted = set()
        checked = 0             # (the variables whose type was looked at, as bits)
        # (the body's code reads resident variables through cpc_f)
        self.frame_ptr_used = bool(layout.resident)
        self._restore_text = {}     # (restores)
        lines, dead = {}, {}
        self.stable = cg.stable_frame(len(sites))
        pre += resume_functions(f.name, sites, self.stable, self.chunking,
                                self.resumed_params(f, sig, layout), self.stub_code, self.body)
        # (the user's variables, as bits: gdb shows no translation
        # temporary cpc_*)
        bits = sites[0].bits if sites else None
        users = bits.mask(k for k, v in f.vars.items()
                          if not v.name.startswith('cpc_')) if sites else 0
        for site in sites:
            vs = layout.site_vars[site.index]
            lines[site.index] = rw.presumed_line(self.u, rw.start(site.stmt))[1]
            saved = lift.saved.get(site.index)
            if saved is None:
                saved = bits.mask(v.key for v in vs)
            dead[site.index] = site.scope_mask & users & ~saved
            stored = layout.site_stores[site.index]
            small.append(self.call_site(f, site, vs, stored, frame, len(sites) != 1, small))
            new = saved & ~checked          # (each variable's type looked at once)
            if new:
                checked |= new
                lifted.update(k for k in bits.ordered(new) if not f.vars[k].is_param and
                              ctype.is_const(f.vars[k].type))
        if lines:
            pre.append(cg.resume_lines(f.name, [lines.get(i, 0)
                                                for i in range(1, max(lines) + 1)]))
            pre.append(dead_table.of_function(self.u, f, cfg, [dead.get(i, 0)
                                                               for i in range(1, max(lines) + 1)]))
        if layout.resident:
            pre.append(cg.resident_names(f.name, [v.name for v in layout.resident.values()]))
        lifted -= layout.resident.keys()
        if lifted:
            unconst_decls(self, f, cfg, lifted, small)

    def resumed_params(self, f, sig, layout):
        """What a resume function passes the body for each parameter: a
        zero (lifting restores the live ones from the frame), or the
        frame's value of a resident parameter the body never assigns
        (FrameLayout.constant_params)."""
        keys = {f.vars[k].name: k for k in layout.constant_params}
        return ['%s->%s' % (cg.top_of(f.name), n) if n in keys else zero(t)
                for (n, t) in sig.params]

    def return_edits(self, f, cfg, sig, frame, small):
        """Each `return` that is not a call site drops the frame and
        returns through the continuation."""
        at_sites = {id(s.stmt) for s in cfg.sites}    # (the walk's objects; one set)
        # (without spawned statements, whose returns are not f's, the walk
        # that enters them is the one that does not)
        returns = body_nodes(f.body).returns if not f.spawns else \
            [n for n, _ in walk(f.body) if n.kind == K.RETURN_STMT]
        for n in returns:
            if id(n) in at_sites:
                continue
            ch = kids(n)
            if not ch:
                code = cg.return_nothing(frame)
            elif sig.void:
                code = cg.return_void_expr(self.ctext(ch[0], small), frame)
            else:
                code = cg.return_value(ctype.declare_rvalue(sig.rt, 'cpc_ret'),
                                       self.ctext(ch[0], small), frame)
            small.append((rw.start(n), rw.full_end(self.u, n), code))

    def user_body(self, f, small, frame, sig, layout):
        """(start, text, end): the user's body from after its `{` (or from
        the next line when the rest of the `{` line is blank, so no empty
        line follows the #line), rewritten, and its generated end.  A
        chunked body (chunks.py) is cut before the first statement of each
        chunk: the chunk before ends there, on into the next, whose
        opening is on that statement's line."""
        u = self.u
        b0, b1 = f.body.extent.start.offset, f.body.extent.end.offset
        start = b0 + 1
        j = u.text.find(b'\n', start, b1 - 1)
        if j >= 0 and not u.text[start:j].strip():
            start = j + 1
        outer = EditList(rw.outermost(small))
        cuts = self.chunking.cuts if self.chunking else []
        bounds = [start] + [c.at for c in cuts] + [b1 - 1]
        # each chunk's resume points, in one pass over them (a chunk at a
        # time went through all of them for each chunk)
        points = {}
        for i, n in sorted(self.chunking.chunk_of.items()) if cuts else ():
            points.setdefault(n, []).append(i)
        pieces = []
        for k, (a, b) in enumerate(zip(bounds, bounds[1:])):
            if k:
                cut = cuts[k - 1]
                consts = {f.vars[k].name for k in layout.constant_params}
                decls = [(d, 'cpc_f->' + n if n in consts else None)
                         for d, n in zip(sig.bdecls, sig.pnames)] + \
                    [(declared(self._type_texts, ctype.declare, v.type, v.name, True), None)
                     for v in cut.declared]
                restores = [self.copy_var(v.name, 'cpc_f->' + v.name, v) for v in cut.carried
                            if v.key not in layout.resident]
                indexes = points.get(cut.number, [])
                # (its opening on the function's line, as the body's dispatch)
                pieces.append(rw.line_directive(u, rw.head_offset(u, f.c)) + '\n' +
                              cg.chunk_head(f.name, cut.number, sig.code + sig.holder, decls,
                                            indexes, restores) + '\n' + rw.resync(u, a))
            # falling off the end returns on the line of the body's closing
            # brace (a new line would be attributed to the line after the
            # function); a chunk goes on into the next there too, as it ends
            # (no statement's line gets a second location)
            text = self.text(a, b, outer).rstrip(' \t')
            if k < len(cuts):
                nxt = cuts[k]
                text += cg.chunk_end(text.endswith('\n'), f.name, nxt.number,
                                     [self.copy_var('cpc_f->' + v.name, v.name, v)
                                      for v in nxt.carried if v.key not in layout.fixed_keys
                                      and v.key not in layout.resident],
                                     rw.line_directive(u, b1 - 1))
            pieces.append(text)
        bodytext = ''.join(pieces)
        return start, bodytext, cg.body_end(bodytext.endswith('\n'), cg.drop(frame))

    def call_args(self, site, small, temps=True):
        """(temporary declarations, C argument list after k, callee C name).
        temps=True: every argument is evaluated into a temporary; None:
        only those with side effects (which could change a variable stored
        in the frame before the call); False: none."""
        call = site.call
        callee = callee_of(call)
        d = callee_decl(call)
        ptypes = callee_params(self._param_types, callee)
        prim = PRIMITIVES.get(d.spelling) if d is not None else None
        decls = []
        names = []
        if d is None:
            decls.append('%s = %s;' % (ctype.declare_rvalue(callee.type, 'cpc_callee'),
                                       self.ctext(callee, small)))
            fn = ctype.as_entry(function_type_of(callee.type), 'cpc_callee')
        else:
            fn = callee_entry(d, self.wait_reserved)
        args = args_of(call)
        for j, a in enumerate(args):
            if temps is False or (temps is None and not has_side_effects(a)):
                names.append(self.ctext(a, small))
                continue
            nm = 'cpc_a%d' % (j + 1)
            if prim is not None and j < len(prim):
                dl = '%s %s' % (prim[j][0], nm)
            elif j < len(ptypes):
                dl = param_temp(self._param_types, callee, ptypes, j, nm)
            else:
                dl = declared(self._type_texts, ctype.declare_rvalue, a.type, nm)
            decls.append('%s = %s;' % (dl, self.ctext(a, small)))
            names.append(nm)
        if prim is not None:
            for j in range(len(args), len(prim)):
                names.append(prim[j][1])
        return decls, names, fn

    def tail_call(self, f, site, frame, small):
        call = site.call
        callee = callee_of(call)
        d = callee_decl(call)
        prim = PRIMITIVES.get(d.spelling) if d is not None else None
        args = [self.ctext(a, small) for a in args_of(call)]
        if prim is not None:
            for j in range(len(args), len(prim)):
                args.append(prim[j][1])
        fn = callee_entry(d, self.wait_reserved) if d is not None else \
            ctype.as_entry(function_type_of(callee.type), self.ctext(callee, small))
        code = cg.tail_call(fn, args, frame)
        if d is not None and self.use_attributes(d):
            code = '{ %s %s }' % (cg.use_of(d.spelling), code)
        s = site.stmt
        return (rw.start(s), rw.full_end(self.u, s), code)

    def copy_var(self, dst, src, v):
        """ctype.copy for variable v, its type looked at once per function
        (a large function copies each variable at hundreds of sites)."""
        try:
            memcpy = self._memcpy_vars[v.key]
        except KeyError:
            memcpy = self._memcpy_vars[v.key] = ctype.has_const_member(v.type)
        if memcpy:
            return ctype.copy(dst, src, v.type)
        return '%s = %s;' % (dst, src)

    def restores(self, vs):
        """The statements restoring `vs` from the frame, each written once
        per function (a large function restores each variable at thousands
        of resume points)."""
        text = self._restore_text
        try:
            return [text[v.key] for v in vs]
        except KeyError:
            for v in vs:
                if v.key not in text:
                    text[v.key] = self.copy_var(v.name, 'cpc_f->' + v.name, v)
            return [text[v.key] for v in vs]

    def call_site(self, f, site, vs, stored, frame, store_fn, small):
        """Call site `site`: store the variables `stored` (and cpc_fn when
        store_fn) in the frame, call; at the resume point restore `vs`.
        All of it on the line of the call (codegen.call_site)."""
        u = self.u
        name = f.name
        stores = [self.copy_var('cpc_f->' + v.name, v.name, v) for v in stored]
        decls, names, fn = self.call_args(site, small,
                                          temps=None if stores or store_fn else False)
        restores = self.restores(vs)
        if len(restores) > 1:
            # (one piece of the lines cg.pin joins: a resume point of a
            # large function restores thousands of variables)
            restores = [' '.join(restores)]
        result = []
        result_temps = []
        memo = self._type_texts
        rt = result_type(memo, site.call)
        prefix = ''
        if site.form == 'decl' and vkey(kids(site.stmt)[0]) in self.layout.resident:
            # (the variable is its frame field: nothing is declared)
            v = kids(site.stmt)[0]
            dest = resident.place(self.layout.resident[vkey(v)])
            if same_type(memo, v.type, rt):
                result.append(cg.result_into(dest))
            else:
                result_temps.append(of_type(memo, ctype.declare_rvalue, rt, 'cpc_r') + ';')
                result.append(cg.result_converted(dest))
        elif site.form == 'decl':
            v = kids(site.stmt)[0]
            vt = v.type
            try:
                prefix = declared(memo, ctype.declare, vt, v.spelling, True) + ';'
            except ctype.Unnameable:
                prefix = self.text(rw.start(site.stmt), rw.start(site.call), small).rstrip()
                if prefix.endswith('='):
                    prefix = prefix[:-1]
                prefix += ';'
            if same_type(memo, vt, rt):
                result.append(cg.result_into(v.spelling))
            else:
                result_temps.append(of_type(memo, ctype.declare_rvalue, rt, 'cpc_r') + ';')
                result.append(cg.result_converted(v.spelling))
        elif site.form == 'assign':
            result_temps.append(of_type(memo, ctype.declare_rvalue, rt, 'cpc_r') + ';')
            result.append(cg.result_converted(self.ctext(site.dest, small)))
        elif site.form == 'return':
            frt = f.c.type.get_result()
            if not of_type(memo, ctype.is_void, frt):
                result_temps.append(of_type(memo, ctype.declare_rvalue, rt, 'cpc_r') + ';')
                result_temps.append(of_type(memo, ctype.declare_rvalue, frt, 'cpc_ret') + ';')
                result += cg.result_returned(frame)
            else:
                result += cg.void_returned(frame)
        body, uses_frame = cg.call_site(name, site.index, comment_text(u.src(site.stmt)),
                                        decls, result_temps, stores,
                                        site.index if store_fn else None, fn, names,
                                        restores, result, self.stable,
                                        dispatch_chunk(self.stable, self.chunking, site.index),
                                        refind=bool(self.layout.resident))
        self.frame_ptr_used = self.frame_ptr_used or uses_frame
        d = callee_decl(site.call)
        if d is not None and self.use_attributes(d):
            body.insert(1, '    ' + cg.use_of(d.spelling))
        if prefix:
            body = [prefix] + body
        s = site.stmt
        ind = rw.indent_of(u, rw.start(s))
        a, b = rw.start(s), rw.full_end(u, s)
        code = cg.pin(rw.line_directive(u, a), [body[0]] + [ind + x for x in body[1:]])
        return (a, b, rw.fix_lines(u, a, b, code))
