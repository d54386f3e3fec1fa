"""Type checking of cps function types (before any rewriting).

Invariant: `check(u)` raises Diags, one per place where a value of a
function (pointer) type flows into a slot of a function (pointer) type whose
cps-ness differs at some level (`cps int (*)(int)` vs `int (*)(int)`, also
through pointers, arrays, parameter and result types): assignments,
initialisers (with nested and designated initialiser lists), arguments of
prototyped calls, `return`, casts and the two arms of `?:`.  Clang, which
treats the cps tag as sugar, accepts all of these; the calling conventions
differ, so each is an error naming both types.  `void *` and null pointer
constants are not function types and mix freely.  It also reports what
cannot run as a cps function (`cps_code_errors`: setjmp, alloca,
`__builtin_apply`, the argument count of an unprototyped cps function),
`cps` on objects, cps entry points the C runtime would call natively, and
cps cleanup functions: every error of the file, not the first.
"""
import re

from . import frontend as fe
from .clang_types import (
    TK_ATTRIBUTED, TK_BTF_TAG, TK_CONSTANTARRAY, TK_ELABORATED, TK_ENUM, TK_FUNCTIONNOPROTO,
    TK_FUNCTIONPROTO, TK_INCOMPLETEARRAY, TK_POINTER, TK_RECORD, TK_TYPEDEF, TK_VARIABLEARRAY,
    TK_VOID, element_type, function_type_of, is_builtin_kind, is_cps_function_type,
    modified_type, param_types, strip_sugar, tkind, type_name)
from .cursors import BO, binop, kids
from .analysis import syntax
from .analysis.gnu_attributes import cleanup_function
from .analysis.func import old_style
from . import cps_free
from . import primitives
from .primitives import PRIMITIVES

K = fe.K

FUNCS = (TK_FUNCTIONPROTO, TK_FUNCTIONNOPROTO)
ARRAYS = (TK_CONSTANTARRAY, TK_INCOMPLETEARRAY, TK_VARIABLEARRAY)


def shape(t, depth=0):
    if depth > 12:
        return None
    t0, _ = strip_sugar(t)
    k = tkind(t0)
    if k == TK_POINTER:
        return ('p', shape(t0.get_pointee(), depth + 1))
    if k in ARRAYS:
        return ('p', shape(element_type(t0), depth + 1))
    if k in FUNCS:
        params = None
        if k == TK_FUNCTIONPROTO:
            params = tuple(shape(a, depth + 1) for a in param_types(t0))
        return ('f', is_cps_function_type(t0), shape(t0.get_result(), depth + 1), params)
    return None


def value_shape(t):
    s = shape(t)
    if s is not None and s[0] == 'f':
        return ('p', s)      # a function designator decays
    return s


def mismatch(a, b):
    if a is None or b is None:
        return False
    if a[0] != b[0]:
        return False
    if a[0] == 'p':
        return mismatch(a[1], b[1])
    if a[1] != b[1]:
        return True
    if mismatch(a[2], b[2]):
        return True
    if a[3] is not None and b[3] is not None and len(a[3]) == len(b[3]):
        return any(mismatch(x, y) for x, y in zip(a[3], b[3]))
    return False


class Checker:
    def __init__(self, u):
        self.u = u
        self.errs = []
        self.shapes = {}

    def value_shape(self, t):
        """value_shape(t), once per type of the parse (a type's bytes are
        its kind and Clang's handle of it: the same type, the same bytes)."""
        key = bytes(t)
        try:
            return self.shapes[key]
        except KeyError:
            r = self.shapes[key] = value_shape(t)
            return r

    def check(self, node, dst, src, what):
        if mismatch(self.value_shape(dst), self.value_shape(src)):
            self.errs.append(self.u.diag(node, 'mixing cps and native function types: %s' % (
                what.format(src='`%s`' % type_name(src), dst='`%s`' % type_name(dst)))))

    def init(self, t, e, walk=True):
        """Initialiser e (expression or list) of an object of type t; walk:
        also check the expressions inside it."""
        k = e.kind
        if k == K.INIT_LIST_EXPR:
            t0, _ = strip_sugar(t)
            tk = tkind(t0)
            fields = []
            if tk == TK_RECORD:
                fields = [f for f in t0.get_fields()]
            idx = 0
            for x in kids(e):
                ch = kids(x)
                if x.kind == K.UNEXPOSED_EXPR and ctype_void(x) and len(ch) >= 2:
                    # designated: .f = v or [i] = v
                    d = ch[0]
                    if d.kind == K.MEMBER_REF:
                        et = d.type
                        for i, f in enumerate(fields):
                            if f.spelling == d.spelling:
                                idx = i
                    elif tk in ARRAYS:
                        et = element_type(t0)
                    else:
                        et = None
                    if et is not None:
                        self.init(et, ch[-1], walk)
                    idx += 1
                    continue
                if tk in ARRAYS:
                    self.init(element_type(t0), x, walk)
                elif tk == TK_RECORD and idx < len(fields):
                    self.init(fields[idx].type, x, walk)
                idx += 1
            return
        if e.kind.is_expression():
            self.check(e, t, e.type, 'initialising an object of type {dst} with {src}')
            if walk:
                self.exprs(e)

    def exprs(self, root, func=None):
        for n, p in syntax.walk(root, skip_spawn=False):
            k = n.kind
            if k == K.BINARY_OPERATOR and binop(n) == BO['Assign']:
                l, r = kids(n)
                self.check(n, l.type, r.type, 'assigning {src} to {dst}')
            elif k == K.VAR_DECL:
                ex = [x for x in kids(n) if x.kind.is_expression()]
                if ex and n is not root:
                    self.init(n.type, ex[-1], walk=False)
            elif k == K.CALL_EXPR:
                ch = kids(n)
                if not ch:
                    continue
                ft = function_type_of(ch[0].type)
                if ft is None or tkind(ft) != TK_FUNCTIONPROTO:
                    continue
                pts = param_types(ft)
                d = syntax.callee_decl(n)
                name = d.spelling if d is not None else self.u.src(ch[0])
                if d is not None and name in PRIMITIVES and not self.u.in_main_file(d):
                    self.primitive_arguments(n, name, ch[1:])
                for i, a in enumerate(ch[1:]):
                    if i < len(pts):
                        self.check(a, pts[i], a.type,
                                   'passing {src} as argument %d of `%s`, whose parameter '
                                   'has type {dst}' % (i + 1, name.replace('{', '{{').replace('}', '}}')))
            elif k == K.RETURN_STMT and func is not None:
                ch = kids(n)
                if ch:
                    self.check(n, func.type.get_result(), ch[0].type,
                               'returning {src} from `%s`, whose result type is {dst}'
                               % func.spelling)
            elif k == K.CSTYLE_CAST_EXPR:
                ch = [x for x in kids(n) if x.kind.is_expression()]
                if ch:
                    self.check(n, n.type, ch[-1].type, 'casting {src} to {dst}')
            elif k == K.CONDITIONAL_OPERATOR:
                ch = kids(n)
                if len(ch) == 3:
                    self.check(n, ch[1].type, ch[2].type,
                               'the arms of `?:` have types {dst} and {src}')

    def primitive_arguments(self, call, name, args):
        """A primitive with optional arguments (declared `...` to Clang)
        takes its own count of them, a condvar where it takes one."""
        params = PRIMITIVES[name]
        need = sum(1 for _, default, _ in params if default is None)
        sig = primitives.signature(name)
        if not need <= len(args) <= len(params):
            self.errs.append(self.u.diag(call, '`%s` takes %s argument%s, not %d: %s' % (
                name, need if need == len(params) else '%d to %d' % (need, len(params)),
                '' if len(params) == 1 else 's', len(args), sig)))
            return
        for i, (a, (t, _, _)) in enumerate(zip(args, params)):
            if t.endswith('*') and tkind(strip_sugar(a.type)[0]) != TK_POINTER and \
                    not null_constant(self.u, a):
                self.errs.append(self.u.diag(a, 'argument %d of `%s` is a condvar (`%s`), '
                                             'not %s: %s' % (i + 1, name, t.strip(),
                                                             a.type.spelling, sig)))

    def run(self):
        u = self.u
        self.errs.extend(misplaced_cps_errors(u))
        self.errs.extend(native_entry_errors(u))
        self.errs.extend(cps_cleanup_errors(u))
        self.errs.extend(cps_code_errors(u))
        for c in u.top():
            if not u.in_main_file(c) or cps_free.skipped(u, c):
                continue
            if c.kind == K.VAR_DECL:
                ex = [x for x in kids(c) if x.kind.is_expression()]
                if ex:
                    self.init(c.type, ex[-1])
            elif c.kind == K.FUNCTION_DECL and c.is_definition():
                for x in kids(c):
                    if x.kind == K.COMPOUND_STMT:
                        self.exprs(x, c)
        if self.errs:
            raise fe.Diags(self.errs)


def null_constant(u, e):
    return re.fullmatch(rb'\(*\s*(0|NULL|\(\s*void\s*\*\s*\)\s*0)\s*\)*',
                        u.text[e.extent.start.offset:e.extent.end.offset].strip()) is not None


OBJECT_DECLS = (K.VAR_DECL, K.PARM_DECL, K.FIELD_DECL, K.TYPEDEF_DECL)


def misplaced_cps(t):
    """True when type t (of an object, parameter, field or typedef) carries
    the cps tag somewhere other than on a function type's result: on the
    object itself, on what a pointer points to, or on the elements of an
    array.  `cps` names a calling convention; only functions have one.
    (Tags inside a typedef are the typedef's own declaration's business.)"""
    for _ in range(32):
        tagged = False
        for _ in range(64):
            k = tkind(t)
            if k == TK_BTF_TAG:
                tagged = tagged or 'cpc_cps' in t.spelling
                t = modified_type(t)
            elif k == TK_ATTRIBUTED:
                t = modified_type(t)
            elif k == TK_ELABORATED:
                t = t.get_named_type()
            elif k == TK_TYPEDEF:
                t = t.get_canonical()
            else:
                break
        k = tkind(t)
        if k in FUNCS:
            return False
        if tagged:
            return True
        if k == TK_POINTER:
            t = t.get_pointee()
        elif k in ARRAYS:
            t = element_type(t)
        elif is_builtin_kind(k) or k in (TK_RECORD, TK_ENUM):
            return False
        else:
            c = t.get_canonical()             # other sugar (a decayed array...)
            if tkind(c) == k:
                return False
            t = c
    return False


def implicit_int(u, n):
    """Whether declaration n is written with `cps` in place of a type
    specifier (`cps *p;`, also through a macro): C89's implicit int, which
    gcc accepts with a warning and where `cps` is then only an attribute of
    the declaration."""
    return n.location.offset in fe.implicit_int_offsets(u)


def misplaced_cps_errors(u):
    what = {K.VAR_DECL: 'variable', K.PARM_DECL: 'parameter', K.FIELD_DECL: 'member',
            K.TYPEDEF_DECL: 'type'}
    errs = []
    for top in u.top():
        if not u.in_main_file(top) or cps_free.skipped(u, top):
            continue
        for n, _p in syntax.walk(top, skip_spawn=False):
            if n.kind not in OBJECT_DECLS:
                continue
            t = n.underlying_typedef_type if n.kind == K.TYPEDEF_DECL else n.type
            if misplaced_cps(t) and not implicit_int(u, n):
                errs.append(u.diag(n, '`cps` applies to functions only, but %s `%s` has type '
                                   '`%s`' % (what[n.kind], n.spelling, type_name(t))))
    return errs


NATIVE_ENTRY_ATTR = re.compile(rb'_*(constructor|destructor)_*\b')


def native_entry_errors(u):
    """A cps function cannot be `main`, a constructor or a destructor: the C
    runtime calls those as native functions, with no continuation."""
    errs, seen = [], set()
    for top in u.top():
        if top.kind != K.FUNCTION_DECL or not u.in_main_file(top) or \
                not is_cps_function_type(top.type):
            continue
        if top.spelling == 'main' and top.storage_class != fe.ci.StorageClass.STATIC:
            if 'main' not in seen:
                seen.add('main')
                errs.append(u.diag(top, '`main` cannot be a cps function: the C runtime calls '
                                   'it as a native function (let a native main spawn a cps '
                                   'function and run cpc_main_loop())'))
            continue
        for a in kids(top):
            if a.kind != K.UNEXPOSED_ATTR:
                continue
            m = NATIVE_ENTRY_ATTR.match(u.text, a.extent.start.offset)
            if m and m.end() <= a.extent.end.offset and a.extent.start.offset not in seen:
                seen.add(a.extent.start.offset)    # (redeclarations inherit it)
                what = m.group(1).decode()
                errs.append(u.diag(top, 'cps function `%s` cannot be a %s: the C runtime '
                                   'calls it as a native function (make a native %s that '
                                   'spawns it)' % (top.spelling, what, what)))
                break
    return errs


def cps_cleanup_errors(u):
    """Nor can it be a variable's cleanup, which C calls when the variable
    leaves its scope."""
    if b'cleanup' not in u.text:
        return []       # (most files: no need to walk every function)
    cps_functions = set(c.spelling for c in u.top() if c.kind == K.FUNCTION_DECL and
                        is_cps_function_type(c.type))
    errs = []
    for f in u.top():
        if f.kind != K.FUNCTION_DECL or not u.in_main_file(f) or cps_free.skipped(u, f):
            continue
        for n, _p in syntax.walk(f, skip_spawn=False):
            if n.kind != K.VAR_DECL:
                continue
            for a in kids(n):
                fn = cleanup_function(u, a)
                if fn in cps_functions:
                    errs.append(u.diag(n, 'the cleanup function of `%s`, `%s`, is cps: C '
                                       'calls it as a native function when the variable '
                                       'goes out of scope' % (n.spelling, fn)))
    return errs


SETJMP = ('setjmp', '_setjmp', 'sigsetjmp', '__sigsetjmp', 'longjmp', '_longjmp', 'siglongjmp',
          '__builtin_setjmp', '__builtin_longjmp')
APPLY = ('__builtin_apply_args', '__builtin_apply', '__builtin_return')
ALLOCA = ('alloca', '__builtin_alloca')


def cps_code(u):
    """(what, body, definition) of each piece of code that runs as a cps
    function: the body of each cps function, and each spawned statement
    (the spawn pass makes it a cps function of its own), without the
    statements spawned in it; `what` names it in messages, `definition`
    is the function definition it is in."""
    for c in cps_free.code_defs(u):
        body = [x for x in kids(c) if x.kind == K.COMPOUND_STMT]
        if not body:
            continue
        if is_cps_function_type(c.type):
            yield 'cps function `%s`' % c.spelling, body[-1], c
        for n, _ in syntax.walk(body[-1], skip_spawn=False):
            if n.kind == K.IF_STMT:
                s = syntax.spawn_body(n)
                if s is not None:
                    yield 'a statement spawned in `%s`' % c.spelling, s, c


def cps_code_errors(u):
    """What cannot run as a cps function: setjmp/longjmp and alloca where
    a cps call suspends the code (the saved context, the memory would not
    survive it), `__builtin_apply` and its kin (the arguments are not where
    the C calling convention puts them), and a call of a cps function
    defined without a prototype with another count of arguments than its
    definition has parameters.  Calls in operands that are never evaluated
    (unevaluated.py replaces them) do not count."""
    errs = []
    unprototyped = {}
    for what, body, definition in cps_code(u):
        # (those of the whole definition: the others' ranges hold none of
        # the body's calls)
        unevaluated = [(x.extent.start.offset, x.extent.end.offset)
                       for x in syntax.unevaluated_operands_in(u, definition)]

        def evaluated(n):
            if not unevaluated:         # (no extent asked: most bodies have none)
                return True
            a, b = n.extent.start.offset, n.extent.end.offset
            return not any(s <= a and b <= e for s, e in unevaluated)

        calls = [n for n, _ in syntax.walk(body) if n.kind == K.CALL_EXPR]
        # (by identity: the walk gives one object per node of the parse)
        cps_calls = {id(n) for n in calls if syntax.is_cps_call(n) and evaluated(n)}
        for n in calls:
            d = syntax.callee_decl(n)
            if d is None:
                continue
            s = d.spelling
            if s in SETJMP and cps_calls:
                errs.append(u.diag(n, '`%s` in %s: setjmp/longjmp cannot cross a cps call'
                                   % (s, what)))
            elif s in APPLY:
                errs.append(u.diag(n, '`%s` in %s: the arguments of a cps function are not '
                                   'where the C calling convention puts them' % (s, what)))
            elif s in ALLOCA and cps_calls:
                errs.append(u.diag(n, '`alloca` in %s: the memory would not survive a cps '
                                   'call' % what))
            elif id(n) in cps_calls:
                errs.extend(unprototyped_arity_errors(u, n, d, unprototyped))
    return errs


def unprototyped_arity_errors(u, call, d, unprototyped):
    """A call of a cps function defined without a prototype (`f(a) int
    a; {...}`, `f() {...}`) must pass as many arguments as the definition
    has parameters: C leaves any other call undefined, and the generated
    entry point, which is prototyped, could not be called with them.
    unprototyped memoises the answer per definition: libclang gives each
    call a new cursor of the callee, whose parameters old_style would list
    again (thousands of times in a large function)."""
    # (once per declaration, whichever reference names it: a call's
    # callee is a new cursor object, and each asks libclang again)
    defn = syntax.decl_fact(d, 'unprototyped definition',
                            lambda d: _unprototyped_definition(u, d, unprototyped))
    if defn is None:
        return []
    want, got = len(list(defn.get_arguments())), len(list(call.get_arguments()))
    if want == got:
        return []
    df, dl, _ = u.loc_of(defn)
    return [u.diag(call, 'cps function `%s` called with %d argument%s, but its definition '
                   'at %s:%d has %d parameter%s' % (d.spelling, got, '' if got == 1 else 's',
                                                    df, dl, want, '' if want == 1 else 's'))]


def _unprototyped_definition(u, d, unprototyped):
    """The definition of function d when it has no prototype (defined, or
    declared as d is, without one), else None."""
    defn = d.get_definition()
    if defn is None:
        return None
    key = (defn.hash, defn.extent.start.offset, tkind(d.type))
    if key not in unprototyped:
        unprototyped[key] = tkind(d.type) == TK_FUNCTIONNOPROTO or old_style(u, defn)
    return defn if unprototyped[key] else None


def ctype_void(c):
    return tkind(c.type) == TK_VOID


def check(u):
    Checker(u).run()
