"""Nested (GCC inner) functions, lifted to file scope before the pipeline.

Invariant of the output: no function definition of the file contains
another one.  Each nested function `N` of file-scope function `F` becomes
`static ... F__N(struct F__N__closure *cpc_nenv, params)` at file scope (cps if
N was): the closure types, F's prototype and every lifted prototype go
just before F, the lifted definitions just after it; `cpc_nenv` holds pointers to the variables of the
enclosing functions that N uses (and to the environments of the other nested
functions it calls), so writes are shared both ways.  N's definition
becomes the initialisation of its environment, `struct F__N__closure
cpc_nest_F__N = { &x, ... };`, padded to the definition's line count; a
call `N(a)` becomes `F__N(&cpc_nest_F__N, a)` and a use of a captured `x`
inside N becomes `(*cpc_nenv->x)`.  A nested function that uses nothing of
its enclosing functions gets no environment and stays callable through an
ordinary pointer; the address of one that does is a thunk reading the
environment from a static slot (docs/translator.md says when it is valid).  The output is ordinary CPC: since the environments take
`&x`, the boxing pass moves to the heap every captured variable in scope at
a cps call, and the later passes see nothing new.

Name resolution is Clang's: the file is parsed once with each nested
definition `T N(P) {B}` read as the block-scope declaration `T N(P);`
followed by the block `{ P; B}` (its parameters as locals), which Clang
accepts; a reference inside N resolves to the declaration it designates.
"""
import re

from . import frontend as fe
from .clang_types import strip_sugar
from .cursors import kids
from . import ctype
from . import rewrite as rw
from .nested_captures import Captures, Item

K = fe.K
ENV_PARAM = 'cpc_nenv'
SLOTS = 8          # thunks per nested function whose address native code may hold
# file-scope helpers of the thunk pools, emitted once
POOL_HELPERS = '''#include <stdio.h>
#include <stdlib.h>
#define CPC_NESTED_SLOTS %d
static __attribute__((unused)) void (*cpc__nested_take(void *volatile *slots,
        void (*const *thunks)(void), void *env, const char *name))(void)
{
    for (int i = 0; i < CPC_NESTED_SLOTS; i++)
        if (__atomic_load_n(&slots[i], __ATOMIC_ACQUIRE) == env)
            return thunks[i];
    for (int i = 0; i < CPC_NESTED_SLOTS; i++) {
        void *expected = NULL;
        if (__atomic_compare_exchange_n(&slots[i], &expected, env, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
            return thunks[i];
    }
    fprintf(stderr, "cpc: more than %%d invocations hold the address of nested function `%%s` "
            "at once\\n", CPC_NESTED_SLOTS, name);
    abort();
}
static __attribute__((unused)) void cpc__nested_release(void *volatile *slots, void *env)
{
    for (int i = 0; i < CPC_NESTED_SLOTS; i++) {
        void *expected = env;
        __atomic_compare_exchange_n(&slots[i], &expected, NULL, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    }
}''' % SLOTS


class Lifter(Captures):
    """Writes the file with its nested functions lifted, from what
    `Captures.decide` found: closure types, prototypes, thunks, the lifted
    definitions and every use rewritten."""

    def env_var(self, f):
        return 'cpc_nest_' + self.lifted[f]

    def env_type(self, f):
        return 'struct %s__closure' % self.lifted[f]

    def pointer_in(self, ctx, it):
        """An expression, in `ctx`, of the pointer that `it`'s field holds."""
        if isinstance(it, Item):
            if it.owner is ctx:
                return '&' + it.name
        else:
            if it is ctx:
                return ENV_PARAM
            if it.parent is ctx:
                return '&' + self.env_var(it)
        return '%s->%s' % (ENV_PARAM, self.fields[ctx][id(it)])

    def after_declaration(self, it):
        """File offset just after the declaration statement of variable
        `it`, or None."""
        p = self.parent.get(it.decl.hash)
        if p is None or p.kind != K.DECL_STMT:
            return None
        o, _ = self.to_orig(p.extent.end.offset)
        return o

    # -- the output --------------------------------------------------------
    def header(self, f):
        """`static T F__N(struct F__N__closure *cpc_nenv, params)`, without `;`."""
        spec = self.text[f.spec[0]:f.spec[1]].decode('utf-8', 'surrogateescape')
        spec = re.sub(r'^\s*(auto|extern)\b', '', spec).strip()
        params = self.text[f.params[0]:f.params[1]].decode('utf-8', 'surrogateescape')
        ps = []
        if self.has_env[f]:
            ps.append('%s *%s' % (self.env_type(f), ENV_PARAM))
        if self.param_texts(f):
            ps.append(params)
        return 'static %s %s(%s)' % (spec, self.lifted[f], ', '.join(ps) or 'void')

    def env_struct(self, f):
        fields = []
        for k, it in self.needs[f].items():
            nm = self.fields[f][k]
            if isinstance(it, Item):
                t = self.var_type(it)
                if ctype.is_vla(t):
                    self.errs.append(self.diag(it.decl_off, 'nested function `%s` uses `%s`, a '
                                               'variable-length array, which CPC cannot pass to '
                                               'it' % (f.name, it.name)))
                    continue
                try:
                    fields.append(self.field_decl(it, nm) + ';')
                except ctype.Unnameable:
                    self.errs.append(self.diag(it.decl_off, 'the type of `%s`, used by nested '
                                               'function `%s`, cannot be named at file scope; '
                                               'declare the type at file scope' % (it.name, f.name)))
            else:
                fields.append('%s *%s;' % (self.env_type(it), nm))
        return '%s { %s };' % (self.env_type(f), ' '.join(fields))

    def pointer_value(self, ctx, f, off, v):
        """The text standing for `&f` (f with an environment) in `ctx`: a
        thunk that calls f with this invocation's environment."""
        L = self.lifted[f]
        where = 'the address of nested function `%s`' % f.name
        if v.escape:
            self.errs.append(self.diag(off, '%s is %s' % (where, v.escape)))
            return None
        if v.returned and f.parent is ctx:
            self.errs.append(self.diag(off, '%s is returned from `%s`: it would be called after '
                                            '`%s` returned, when the variables it uses are gone'
                                       % (where, ctx.name, ctx.name)))
            return None
        if self.is_cps(f):
            self.errs.append(self.diag(off, '%s, a cps function that uses variables of `%s`, '
                                            'cannot be taken; call it directly'
                                       % (where, f.parent.name)))
            return None
        decl = self._decls.get(f)
        if decl is None or decl.type.is_function_variadic() or \
                any(p.kind == K.PARM_DECL and not p.spelling for p in kids(decl)):
            self.errs.append(self.diag(off, '%s cannot be taken: it is variadic or has unnamed '
                                            'parameters' % where))
            return None
        env = self.pointer_in(ctx, f)
        if not v.cps_context and not self.is_cps_context(f.parent, decl):
            if f not in self.pools:
                self.pools.append(f)
            return '((__typeof__(&%s__thunk_0))%s__take(%s))' % (L, L, env)
        if not v.native_arg:
            self.errs.append(self.diag(off, '%s, which uses variables of `%s`, is taken in cps '
                                            'context: it can only be passed to a native function '
                                            'call there, and is valid during that call'
                                       % (where, f.parent.name)))
            return None
        if f not in self.transients:
            self.transients.append(f)
        return '(%s__current = %s, %s__thunk)' % (L, env, L)

    def thunks(self, f):
        """File-scope thunks of nested function f (after its prototype)."""
        L = self.lifted[f]
        decl = self._decls[f]
        params = self.text[f.params[0]:f.params[1]].decode('utf-8', 'surrogateescape')
        if not self.param_texts(f):
            params = 'void'
        names = [p.spelling for p in kids(decl) if p.kind == K.PARM_DECL]
        ret = '' if ctype.is_void(decl.type.get_result()) else 'return '
        spec = self.text[f.spec[0]:f.spec[1]].decode('utf-8', 'surrogateescape')
        out = []

        def thunk(name, env):
            return 'static %s %s(%s) { %s%s(%s); }' % (spec, name, params, ret, L,
                                                       ', '.join([env] + names))
        if f in self.pools:
            out.append('static %s *volatile %s__slots[CPC_NESTED_SLOTS];' % (self.env_type(f), L))
            for i in range(SLOTS):
                out.append(thunk('%s__thunk_%d' % (L, i), '%s__slots[%d]' % (L, i)))
            out.append('static void (*const %s__thunks[CPC_NESTED_SLOTS])(void) = { %s };' % (
                L, ', '.join('(void (*)(void))%s__thunk_%d' % (L, i) for i in range(SLOTS))))
            out.append('static void (*%s__take(%s *e))(void) { return cpc__nested_take((void '
                       '*volatile *)%s__slots, %s__thunks, e, "%s"); }' % (
                           L, self.env_type(f), L, L, f.name))
            out.append('static void %s__release(%s *e) { cpc__nested_release((void *volatile '
                       '*)%s__slots, e); }' % (L, self.env_type(f), L))
        if f in self.transients:
            out.append('static __thread %s *%s__current;' % (self.env_type(f), L))
            out.append(thunk('%s__thunk' % L, '%s__current' % L))
        return out

    def late_assignments(self):
        """The fields of each closure that cannot be set where it is
        declared (the variable or closure is declared later): each is set
        right after that declaration, so a closure is complete as soon as
        everything it points to exists.  Returns {Fn: [(offset or Fn,
        text)]}: an offset in f's parent, or a closure whose declaration the
        assignment follows."""
        late = {}
        for f in self.fns:
            if f.parent is None or not self.has_env[f]:
                continue
            point = self.env_point(f)
            v = self.env_var(f)
            for k, it in self.needs[f].items():
                if self.declared_at(it) < point:
                    continue
                assign = ' %s.%s = %s;' % (v, self.fields[f][k], self.pointer_in(f.parent, it))
                where = it if not isinstance(it, Item) else self.after_declaration(it)
                late.setdefault(f, []).append((where, assign))
        return late

    def definition_edits(self, f, late):
        """Edits in f's parent replacing f's forward declaration and
        definition by its environment's declaration and initialisation."""
        ctx = f.parent
        out = []

        def pad(a, b, s):
            return (a, b, s + '\n' * self.text[a:b].count(b'\n'))
        if not self.has_env[f]:
            if f.forward is not None:
                out.append(pad(f.forward[0], f.forward[1], ';'))
            out.append(pad(f.start, f.end, ';'))
            return out
        point = self.env_point(f)
        early = [(self.fields[f][k], self.pointer_in(ctx, it))
                 for k, it in self.needs[f].items() if self.declared_at(it) < point]
        v = self.env_var(f)
        # unused when f is never called: gcc says so of f itself
        decl = '%s %s __attribute__((unused))' % (self.env_type(f), v)
        if f in self.pools:
            decl += ' __attribute__((cleanup(%s__release)))' % self.lifted[f]
        if early:
            decl += ' = { %s }' % ', '.join('.%s = %s' % e for e in early)
        decl += ';'
        # assignments that wait for this closure, or for nothing known
        at_def = ''
        for g, assigns in late.items():
            for (where, text) in assigns:
                if where is f:
                    decl += text
                elif g is f and where is None:
                    at_def += text
                elif g is f and isinstance(where, int):
                    out.append((where, where, text))
        if f.forward is not None:
            out.append(pad(f.forward[0], f.forward[1], decl))
            out.append(pad(f.start, f.end, at_def.strip() or ';'))
        elif point != f.start:
            out.append((point, point, ' ' + decl))
            out.append(pad(f.start, f.end, at_def.strip() or ';'))
        else:
            out.append(pad(f.start, f.end, decl + at_def))
        return out

    def pool_helpers(self, at):
        """POOL_HELPERS with their code on one line, the line of `at` (the
        lifted functions' helpers are on the enclosing function's line)."""
        lines = POOL_HELPERS.split('\n')
        directives = [ln for ln in lines if ln.startswith('#')]
        code = ' '.join(ln.strip() for ln in lines if not ln.startswith('#'))
        return '\n'.join(directives + [self.line_directive(at), code])

    def use_edits(self):
        edits = {f: [] for f in self.fns}
        self.pools = []               # nested functions with a pool of thunks
        self.transients = []          # nested functions with a per-thread thunk
        for (ctx, what, (a, b), call, value) in self.uses:
            if isinstance(what, Item):
                edits[ctx].append((a, b, '(*%s)' % self.pointer_in(ctx, what)))
                continue
            if call is None and self.has_env[what]:
                t = self.pointer_value(ctx, what, a, value)
                if t is not None:
                    edits[ctx].append((a, b, t))
                continue
            edits[ctx].append((a, b, self.lifted[what]))
            if call is None:
                continue
            if not self.has_env[what]:
                continue
            callee_end, _ = self.to_orig(kids(call)[0].extent.end.offset)
            p = rw.skip_space(self.text, callee_end)
            if self.text[p:p + 1] != b'(':
                self.errs.append(self.diag(a, 'cannot find the arguments of this call of '
                                              'nested function `%s`' % what.name))
                continue
            nargs = len(kids(call)) - 1
            env = self.pointer_in(ctx, what)
            edits[ctx].append((p + 1, p + 1, env + (', ' if nargs else '')))
        late = self.late_assignments()
        for f in self.fns:
            if f.parent is not None:
                edits[f.parent].extend(self.definition_edits(f, late))
        return edits

    def body_text(self, f, edits):
        a, b = f.lbrace, f.end
        es = sorted((e for e in edits[f] if a <= e[0] and e[1] <= b), key=lambda e: (e[0], e[1]))
        return _apply(self.text[a:b], [(x - a, y - a, t) for (x, y, t) in es])

    def field_decl(self, it, name):
        """The declaration of the environment field pointing at `it`."""
        d = it.decl
        t = self.var_type(it)
        if (d.kind == K.PARM_DECL or self.to_orig(d.location.offset)[1] is not None) and \
                ctype.is_array(t):
            # a parameter declared as an array is a pointer
            return ctype.declare_ptr_to(strip_sugar(t)[0].element_type, '*' + name)
        return ctype.declare_ptr_to(t, name)

    def var_type(self, it):
        """The type of a captured variable (a nested function's parameter
        as its prototype declares it)."""
        d = it.decl
        if d.kind == K.VAR_DECL:
            _, inj = self.to_orig(d.location.offset)
            if inj is not None:
                decl = self._decls.get(inj)
                for p in (kids(decl) if decl is not None else ()):
                    if p.kind == K.PARM_DECL and p.spelling == d.spelling:
                        return p.type
        return d.type

    def run(self):
        if not self.tops:
            return self.text
        if not self.decide():
            return self.text
        edits = self.use_edits()
        out_edits = []
        helpers_done = False
        for top in self.tops:
            nested = list(top.walk())
            pre = ['/* functions nested in `%s`, lifted to file scope */' % top.name]
            for f in nested:
                if self.has_env[f]:
                    pre.append('%s;' % self.env_type(f))
            for f in nested:
                if self.has_env[f]:
                    pre.append(self.line_directive(f.start))
                    pre.append(self.env_struct(f))
            hdr = self.text[top.start:top.header_end].decode('utf-8', 'surrogateescape')
            pre.append(self.line_directive(top.start))
            pre.append(hdr + ';')
            for f in nested:
                pre.append(self.line_directive(f.start))
                pre.append(self.header(f) + ';')
            for f in nested:
                th = self.thunks(f)
                if th and not helpers_done and f in self.pools:
                    pre.insert(1, self.pool_helpers(top.start))
                    helpers_done = True
                if th:
                    # (on one line: the nested function's)
                    pre.append(self.line_directive(f.start))
                    pre.append(' '.join(th))
            col = top.start - (self.text.rfind(b'\n', 0, top.start) + 1)
            pre.append(self.line_directive(top.start))
            out_edits.append((top.start, top.start, '\n'.join(pre) + '\n' + ' ' * col))
            out_edits.extend(e for e in edits[top] if top.lbrace <= e[0] and e[1] <= top.end)
            # the definitions follow F, so that macros defined in F before them apply
            post = []
            for f in nested:
                post.append(self.line_directive(f.start))
                post.append(self.header(f))
                post.append(self.line_directive(f.lbrace))
                line_start = self.text.rfind(b'\n', 0, f.lbrace) + 1
                post.append(' ' * (f.lbrace - line_start) +
                            self.body_text(f, edits).decode('utf-8', 'surrogateescape'))
            after = self.text.find(b'\n', top.end)
            after = len(self.text) if after < 0 else after + 1
            tail = '' if after < len(self.text) else '\n'
            post.append(self.line_directive(after) if after < len(self.text) else '')
            out_edits.append((after, after, tail + '\n'.join(post) + '\n'))
        if self.errs:
            raise fe.Diags(sorted(self.errs, key=lambda d: (d.line, d.col)))
        return _apply(self.text, out_edits)


def _apply(text, edits):
    """rw.apply (an insertion at a replaced range's start, such as the
    environment argument of `f(x)`, goes first) without duplicates, dropped
    by dict.fromkeys, which keeps the first: a set would order them by
    string hashes, different in every process."""
    return rw.apply(text, list(dict.fromkeys(edits)))


CLANG_NESTED_MSG = 'function definition is not allowed here'
# what Clang's message becomes for a nested definition left in place
UNLIFTED_MSG = ('CPC cannot lift this nested function definition: it must be written out in '
                'the enclosing function (not made by a macro), as '
                '`specifiers name(parameters) { ... }`')


def parse(text, path, args, parse_fn):
    """parse_fn(text, path, args) (a Unit), lifting the nested functions
    first when Clang reports some: a file without them costs nothing more."""
    try:
        return parse_fn(text, path, args)
    except fe.Diags as e:
        if not any(CLANG_NESTED_MSG in d.msg for d in e.diags):
            raise
    try:
        return parse_fn(lift(text, path, args), path, args)
    except fe.Diags as e:
        for d in e.diags:
            if CLANG_NESTED_MSG in d.msg:
                d.msg = UNLIFTED_MSG
        raise


def stage(text, ctx):
    """The pre-parse stage: `text` with its nested functions lifted, or
    unchanged when Clang reports none (then its parse is the pipeline's
    first, `ctx.parsed`: a file without them costs nothing more)."""
    try:
        u = fe.parse(text, ctx.path, ctx.args)
    except fe.Diags as e:
        if any(CLANG_NESTED_MSG in d.msg for d in e.diags):
            return lift(text, ctx.path, ctx.args)
        return text
    ctx.parsed = (text, u)
    return text


def lift(text, path, args=()):
    """CPC text (bytes) -> CPC text without nested function definitions."""
    return Lifter(text, path, args).run()
