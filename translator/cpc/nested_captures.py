"""What lifting nested functions decides, before anything is written
(nested.py writes it): the parse that resolves names (each nested definition
read as a block-scope declaration followed by a block of its parameters and
body), which variables and nested functions each nested function uses and
how (called, or used as a value that may escape), the name of each lifted
function and the environment each needs, and the errors found on the way.
"""
import bisect
import re

from . import frontend as fe
from . import libclang
from .clang_types import is_cps_function_type
from .cursors import BO, UO, adopt, binop, kids, unop
from .analysis.syntax import is_cps_call, spawn_body, strip
from . import clex
from . import nestscan
from . import reserved
from . import rewrite as rw

K = fe.K
# names the later passes derive from a function's name (`f__cps`, ...:
# reserved.py's suffixes; `arr_` those of spawn's array structs)
RESERVED = re.compile(r'^(?:%s|arr_.*)$' % '|'.join(
    reserved.CODE_SUFFIXES + reserved.TABLE_SUFFIXES + reserved.ANY_SUFFIXES))


class Item:
    """A variable of an enclosing function that a nested function uses
    (the other thing a closure may point to is a nested function's closure:
    that item is the nested Fn itself)."""

    def __init__(self, key, name, owner, decl_off, decl):
        self.key = key
        self.name = name
        self.owner = owner            # the Fn whose variable it is
        self.decl_off = decl_off      # where it is declared (initialisation order)
        self.decl = decl              # its declaration in the resolving parse


class Value:
    """A nested function used as a value (not called directly)."""
    cursor = None
    addr = None                       # the `&f` expression around the reference
    cps_context = False               # the use is in cps context
    native_arg = False                # a direct argument of a native call
    cps_arg = False                   # a direct argument of a cps call
    returned = False                  # the operand of a `return`
    escape = None                     # why the address visibly outlives the call


class Source:
    """A file's text, its nested functions (nestscan.py) and the parse that
    resolves their names, with the positions of one in the other."""

    def __init__(self, text, path, args):
        self.text = text
        self.path = path
        self.args = list(args)
        self.tops = nestscan.scan(text)
        self.fns = []
        for f in self.tops:
            self.fns.append(f)
            self.fns.extend(f.walk())
        self.errs = []
        self._lines = [0] + [m.end() for m in re.finditer(rb'\n', text)]

    # -- positions ---------------------------------------------------------
    def line_col(self, off):
        i = bisect.bisect_right(self._lines, off) - 1
        return i + 1, off - self._lines[i] + 1

    def presumed(self, off):
        """(file, line, col) of file offset `off` as the compiler will see
        it: through the file's own `#line` directives, once Clang has read
        it (the resolving parse keeps every line where it was)."""
        u = getattr(self, 'u', None)
        if u is None:
            return (self.path,) + self.line_col(off)
        i = bisect.bisect_right(self._map_origs, off) - 1
        a, o = self._map[max(i, 0)]
        f, line, col = libclang.presumed(u.tu.get_location(self.path, a + (off - o)))
        return f or self.path, line, self.line_col(off)[1]

    def diag(self, off, msg):
        f, line, col = self.presumed(off)
        return fe.Diag(msg, f, line, col)

    def line_directive(self, off):
        f, line, _ = self.presumed(off)
        return '#line %d "%s"' % (line, rw.cstr(f))

    def fn_at(self, off):
        """The innermost function whose definition contains `off`."""
        best = None
        for f in self.fns:
            if f.start <= off < f.end and (best is None or f.start >= best.start):
                best = f
        return best

    def context_at(self, off):
        """The innermost function whose body contains `off`."""
        best = None
        for f in self.fns:
            if f.lbrace <= off < f.end and (best is None or f.lbrace >= best.lbrace):
                best = f
        return best

    # -- the parse that resolves names ---------------------------------------
    def analysis_text(self):
        edits = []
        self.injected = []            # [(ana_start, ana_end, Fn)]
        for f in self.fns:
            for (a, b, name_off) in f.forwards:
                edits.append((a, a + 4, '    ', None))      # `auto` -> blanks
            for c in f.children:
                hdr = self.text[c.start:c.header_end].decode('utf-8', 'surrogateescape')
                decls = ''.join(as_local(p) + '; ' for p in self.param_texts(c))
                edits.append((c.start, c.lbrace + 1, hdr + '; { ' + decls, c))
        edits.sort(key=lambda e: e[0])
        out = []
        pos = 0
        self._map = []                # [(ana_start, orig_start)] of copied runs
        ana = 0
        for (a, b, new, fn) in edits:
            out.append(self.text[pos:a])
            self._map.append((ana, pos))
            ana += a - pos
            nb = new.encode('utf-8', 'surrogateescape')
            if fn is not None:
                self.injected.append((ana, ana + len(nb), fn))
            out.append(nb)
            ana += len(nb)
            pos = b
        out.append(self.text[pos:])
        self._map.append((ana, pos))
        self._map_keys = [m[0] for m in self._map]
        self._map_origs = [m[1] for m in self._map]
        return b''.join(out)

    def param_texts(self, fn):
        """The parameter declarations of `fn`, each on one line without its
        comments (none for `void`, and not `...`)."""
        parts, depth, cur = [], 0, []
        for t in clex.tokens(self.text[fn.params[0]:fn.params[1]]):
            s = t.text.decode('utf-8', 'surrogateescape')
            if s in ('(', '['):
                depth += 1
            elif s in (')', ']'):
                depth -= 1
            if s == ',' and depth == 0:
                parts.append(' '.join(cur))
                cur = []
            else:
                cur.append(s)
        parts.append(' '.join(cur))
        if parts in ([''], ['void']):
            return []
        return [p for p in parts if p != '...']

    def to_orig(self, ana_off):
        """(orig offset, None), or (None, Fn) inside Fn's injected header."""
        for (a, b, fn) in self.injected:
            if a <= ana_off < b:
                return None, fn
        i = bisect.bisect_right(self._map_keys, ana_off) - 1
        a, o = self._map[i]
        return o + (ana_off - a), None


class Captures(Source):
    """What each nested function uses of its enclosing functions, their
    lifted names and environments (`decide`)."""

    # -- what each nested function uses ------------------------------------------
    def resolve(self):
        u = fe.parse(self.analysis_text(), self.path, self.args, check=False)
        self.u = u
        self.body_errors()
        self.uses = []                # [(ctx, Item or Fn, (a, b), call cursor, Value)]
        self.items = {}
        self._decls = {}              # Fn -> its block-scope FUNCTION_DECL
        self.parent = {}              # cursor hash -> parent cursor
        self._top_cps = {}
        for top in u.top():
            if top.kind != K.FUNCTION_DECL or not top.is_definition() or not u.in_main_file(top):
                continue
            o, _ = self.to_orig(top.extent.start.offset)
            mine = [t for t in self.tops if t.start <= o < t.end] if o is not None else []
            if not mine:
                continue
            self._top_cps[mine[0]] = is_cps_function_type(top.type)
            self.walk_function(top)

    def drop_inactive(self):
        """Forget the definitions Clang did not see (in a preprocessor
        branch not taken): they stay as they are, which the compiler skips."""
        seen = set(self._decls)
        for f in self.fns:
            f.children = [c for c in f.children if c in seen]
        self.fns = []
        for t in self.tops:
            self.fns.append(t)
            self.fns.extend(t.walk())
        self.tops = [t for t in self.tops if t.children]
        self.fns = [f for f in self.fns if f.parent is not None or f in self.tops]
        self.uses = [u for u in self.uses if u[0] in self.fns]

    def body_errors(self):
        """Clang's errors inside nested bodies, reported here: its error
        recovery drops the expressions in error, whose references could then
        not be rewritten.  Errors about `return` and labels are the reading's
        own (a nested body is read as a block of its enclosing function); the
        C compiler checks those against the lifted function."""
        nested = [f for f in self.fns if f.parent is not None]
        for d in self.u.tu.diagnostics:
            if d.severity < fe.ci.Diagnostic.Error or d.location.file is None or \
                    d.location.file.name != self.path or 'return' in d.spelling or \
                    'label' in d.spelling:
                continue
            o, inj = self.to_orig(d.location.offset)
            if o is not None and any(f.lbrace <= o < f.end for f in nested):
                err = self.diag(o, d.spelling)
                err.from_clang = True
                self.errs.append(err)

    def nested_fn_of_decl(self, d, use_off, ctx):
        """The nested Fn that FUNCTION_DECL `d` declares (at its definition
        or an `auto` forward declaration), or None.  A call with no
        declaration in sight (Clang declares the function implicitly) of a
        function nested later in an enclosing block is a call of it, as the
        original CPC accepted (GCC wants an `auto` declaration first)."""
        o, inj = self.to_orig(d.location.offset)
        if inj is not None:
            return inj
        if d.extent.start.offset == d.extent.end.offset:          # implicit
            best = None
            for f in self.fns:
                if f.parent is not None and f.name == d.spelling and use_off < f.start and \
                        (f.parent is ctx or self.is_ancestor(f.parent, ctx)) and \
                        (best is None or self.is_ancestor(best.parent, f.parent)):
                    best = f
            return best
        for f in self.fns:
            for (a, b, name_off) in f.forwards:
                if name_off == o:
                    for c in f.children:
                        if c.name == d.spelling and c.start > a:
                            return c
        return None          # (a declaration never defined: reported once, by run)

    def walk_function(self, top):
        parent = self.parent
        stack = [top]
        refs = []
        while stack:
            n = stack.pop()
            for x in kids(n):
                parent[x.hash] = n
                stack.append(x)
            if n.kind in (K.DECL_REF_EXPR, K.TYPE_REF, K.LABEL_REF):
                refs.append(n)
            elif n.kind == K.FUNCTION_DECL and n != top:
                _, inj = self.to_orig(n.location.offset)
                if inj is not None:
                    self._decls[inj] = n
        for n in refs:
            d = adopt(n.referenced)
            if d is None:
                continue
            o, _ = self.to_orig(n.extent.start.offset)
            if o is None:
                continue
            ctx = self.context_at(o)
            if ctx is None:
                continue
            if n.kind == K.TYPE_REF or d.kind == K.ENUM_CONSTANT_DECL:
                self.check_local_declaration(n, d, o, ctx)
                continue
            if n.kind == K.LABEL_REF:
                do, _ = self.to_orig(d.location.offset)
                if do is not None and ctx.parent is not None and not \
                        (ctx.lbrace <= do < ctx.end and self.context_at(do) is ctx):
                    self.errs.append(self.diag(o, 'nested function `%s` jumps to label `%s` of '
                                                  'an enclosing function: CPC does not support '
                                                  'such non-local gotos' % (ctx.name, n.spelling)))
                continue
            if d.kind in (K.VAR_DECL, K.PARM_DECL):
                do, dinj = self.to_orig(d.location.offset)
                owner = dinj if dinj is not None else (self.fn_at(do) if do is not None else None)
                if owner is None or owner is ctx or not self.is_ancestor(owner, ctx):
                    continue
                key = ('v', d.location.offset)
                it = self.items.get(key)
                if it is None:
                    it = self.items[key] = Item(key, d.spelling, owner,
                                                do if do is not None else dinj.start, d)
                self.use(ctx, it, n, None)
            elif d.kind == K.FUNCTION_DECL:
                m = self.nested_fn_of_decl(d, o, ctx)
                if m is None:
                    continue
                if o < m.start and m.forward is None:
                    m.early_use = True
                q, c = n, parent.get(n.hash)
                while c is not None and c.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
                    q, c = c, parent.get(c.hash)
                call = None
                if c is not None and c.kind == K.CALL_EXPR and kids(c) and kids(c)[0] == q:
                    call = c
                    self.use(ctx, m, n, call)
                else:
                    self.use(ctx, m, n, None, self.value_of(n, ctx))

    def check_local_declaration(self, n, d, o, ctx):
        """A type or enumerator that nested `ctx` uses must be declared in
        it or at file scope: its lifted copy sees nothing of its enclosing
        functions."""
        if ctx.parent is None or d.location.file is None or d.location.file.name != self.path:
            return
        do, dinj = self.to_orig(d.location.offset)
        owner = dinj if dinj is not None else (self.fn_at(do) if do is not None else None)
        if owner is None or owner is ctx or not self.is_ancestor(owner, ctx):
            return
        what = d.spelling if d.kind == K.ENUM_CONSTANT_DECL else n.spelling
        self.errs.append(self.diag(o, 'nested function `%s` uses `%s`, declared inside `%s`: '
                                      'CPC lifts nested functions to file scope, where it is '
                                      'not visible; declare it at file scope'
                                   % (ctx.name, what, owner.name)))

    def text_of(self, c):
        return self.u.text[c.extent.start.offset:c.extent.end.offset].decode(
            'utf-8', 'surrogateescape')

    def in_spawn(self, c, ctx):
        """Cursor `c` lies in a `cpc_spawn` body inside function `ctx`."""
        p = self.parent.get(c.hash)
        while p is not None and p.kind != K.FUNCTION_DECL:
            if p.kind == K.IF_STMT and spawn_body(p) is not None:
                return True
            p = self.parent.get(p.hash)
        return False

    def is_cps_context(self, f, c):
        """Code at cursor `c` in function `f` runs in cps context."""
        cps = self._top_cps.get(f) if f.parent is None else self.is_cps(f)
        return cps or self.in_spawn(c, f)

    def value_of(self, n, ctx):
        """How nested function reference `n` is used as a value."""
        v = Value()
        v.cursor = n
        v.cps_context = self.is_cps_context(ctx, n)
        c, p = n, self.parent.get(n.hash)
        while p is not None and p.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR,
                                           K.UNARY_OPERATOR):
            if p.kind == K.UNARY_OPERATOR:
                if unop(p) != UO['AddrOf']:
                    break
                v.addr = p
            c, p = p, self.parent.get(p.hash)
        if p is not None and p.kind == K.CALL_EXPR and kids(p)[0] != c:
            v.native_arg = not is_cps_call(p)
            v.cps_arg = not v.native_arg
        while p is not None and p.kind not in (K.RETURN_STMT, K.COMPOUND_STMT, K.FUNCTION_DECL):
            if p.kind == K.BINARY_OPERATOR and binop(p) == BO['Assign']:
                lhs = strip(kids(p)[0])
                # `g.cb = f`, `table[i] = f`: the object stored into (not through a pointer)
                while lhs.kind in (K.MEMBER_REF_EXPR, K.ARRAY_SUBSCRIPT_EXPR) and kids(lhs) and \
                        not (lhs.kind == K.MEMBER_REF_EXPR and self.text_of(lhs).find('->') >= 0):
                    lhs = strip(kids(lhs)[0])
                target = adopt(lhs.referenced) if lhs.kind == K.DECL_REF_EXPR else None
                if target is not None and target.kind == K.VAR_DECL and \
                        (target.semantic_parent is None or
                         target.semantic_parent.kind == K.TRANSLATION_UNIT or
                         target.storage_class == fe.ci.StorageClass.STATIC):
                    v.escape = 'stored in `%s`, which outlives the enclosing call' % lhs.spelling
                break
            p = self.parent.get(p.hash)
        if p is not None and p.kind == K.RETURN_STMT:
            v.returned = True
        return v

    @staticmethod
    def is_ancestor(a, b):
        p = b.parent
        while p is not None:
            if p is a:
                return True
            p = p.parent
        return False

    def use(self, ctx, what, n, call, value=None):
        r = self.u.written(n)
        if r is None:
            o = self.to_orig(n.extent.start.offset)[0] or 0
            self.errs.append(self.diag(o, '`%s`, used by nested function `%s`, comes out of a '
                                          'macro expansion and cannot be rewritten'
                                       % (what.name, ctx.name)))
            return
        if value is not None and value.addr is not None:
            r2 = self.u.written(value.addr)
            if r2 is not None:
                r = r2
        a, _ = self.to_orig(r[0])
        b, _ = self.to_orig(r[1])
        self.uses.append((ctx, what, (a, b), call, value))

    # -- environments --------------------------------------------------------
    def local_to(self, ctx, it):
        """`it` is reached in `ctx` without its environment."""
        if isinstance(it, Item):
            return it.owner is ctx
        return it is ctx or it.parent is ctx

    def compute_environments(self):
        nested = [f for f in self.fns if f.parent is not None]
        self.has_env = {f: False for f in nested}
        for _ in range(len(nested) + 2):
            needs = {f: {} for f in self.fns}
            for (ctx, what, r, call, value) in self.uses:
                if isinstance(what, Item) or self.has_env[what]:
                    if not self.local_to(ctx, what):
                        needs[ctx].setdefault(id(what), what)
            for f in reversed(nested):         # children before their parents
                for k, it in needs[f].items():
                    if not self.local_to(f.parent, it):
                        needs[f.parent].setdefault(k, it)
            new = {f: bool(needs[f]) for f in nested}
            if new == self.has_env:
                break
            self.has_env = new
        # fields in declaration order
        self.needs = {f: dict(sorted(d.items(), key=lambda kv: self.declared_at(kv[1])))
                      for f, d in needs.items()}
        needs = self.needs
        self.fields = {}
        for f in nested:
            names = {}
            for k, it in needs[f].items():
                base = it.name if isinstance(it, Item) else 'cpc_nest_' + self.lifted[it]
                nm, i = base, 1
                while nm in names.values():
                    i += 1
                    nm = '%s__%d' % (base, i)
                names[k] = nm
            self.fields[f] = names

    def name_lifted(self):
        self.lifted = {}
        used = set()
        for f in self.fns:
            if f.parent is None:
                continue
            chain = []
            p = f
            while p is not None:
                chain.append(p.name)
                p = p.parent
            if RESERVED.match(f.name):
                chain[0] += '__nested'
            base = '__'.join(reversed(chain))
            nm, i = base, 1
            while nm in used:
                i += 1
                nm = '%s__%d' % (base, i)
            used.add(nm)
            self.lifted[f] = nm

    def decide(self):
        """Resolve the names, then decide what each nested function captures,
        its lifted name and its environment; False when no nested function
        is left to lift (all in preprocessor branches not taken)."""
        for f in self.fns:
            f.forward = None
            f.early_use = False
        for f in self.fns:
            for (a, b, name_off) in f.forwards:
                name = self.text[name_off:].split(b'(')[0].strip().decode()
                later = [c for c in f.children if c.name == name and c.start > a]
                if not later:
                    self.errs.append(self.diag(a, 'nested function `%s` is declared but not '
                                                  'defined in this block' % name))
                    continue
                later[0].forward = (a, b)
        self.name_lifted()
        self.resolve()
        self.drop_inactive()
        if not self.tops:
            return False
        self.compute_environments()
        return True

    def declared_at(self, it):
        if isinstance(it, Item):
            return it.decl_off
        return self.env_point(it)

    def env_point(self, f):
        """Where f's environment is declared: at its `auto` declaration, at
        the start of its block when it is used before its definition, else
        in place of its definition."""
        if f.forward is not None:
            return f.forward[0]
        if f.early_use:
            block = self.enclosing_block(self._decls.get(f))
            if block is not None:
                return block + 1
        return f.start

    def enclosing_block(self, c):
        """File offset of the `{` of the block statement holding cursor c."""
        p = self.parent.get(c.hash) if c is not None else None
        while p is not None and p.kind != K.COMPOUND_STMT:
            p = self.parent.get(p.hash)
        if p is None:
            return None
        o, _ = self.to_orig(p.extent.start.offset)
        return o if o is not None and self.text[o:o + 1] == b'{' else None

    def is_cps(self, f):
        return bool(re.search(rb'\bcps\b|__attribute__\s*\(\(\s*(__)?cps(__)?\s*\)\)',
                              self.text[f.spec[0]:f.spec[1]]))


NOT_DECLARATOR_NAMES = {'__attribute__', '__typeof__', 'typeof', '__typeof', '_Alignas',
                        '__declspec', '__asm__', 'asm'}


def as_local(param):
    """A parameter declaration rewritten as the local it is: an array or
    function declarator is a pointer (`int v[]` is `int (*v)`), so the
    local is valid and its uses resolve to it."""
    toks = [t.text.decode('utf-8', 'surrogateescape') for t in clex.tokens(param.encode(
        'utf-8', 'surrogateescape'))]
    for i in range(len(toks) - 1):
        if re.match(r'[A-Za-z_$]', toks[i]) and toks[i] not in NOT_DECLARATOR_NAMES and \
                toks[i + 1] in ('[', '('):
            j = i + 1
            if toks[j] == '[':
                depth = 0
                while j < len(toks):
                    depth += {'[': 1, ']': -1}.get(toks[j], 0)
                    j += 1
                    if depth == 0:
                        break
            return ' '.join(toks[:i] + ['(*%s)' % toks[i]] + toks[j:])
    return param
