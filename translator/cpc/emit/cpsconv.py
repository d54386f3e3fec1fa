"""CPS conversion and emission of the generated C.

Invariant: on a prepared, normalised and boxed unit, `emit(u)` returns C
source (for the header's C mode) equivalent to the CPC program, in the shape
of docs/abi.md: each cps function f becomes `f__cps(k, params)` (budget
check, bounce frame `struct f__args` and `f__bounce`) and, when it has
resume points, a static `f__body(k, cpc_resume, params)` that dispatches to
the label `f__resumed_N` after call N, keeping the user's statements.  The
body pushes one `struct f__frame` per invocation (every variable live across
some call), storing at once the parameters it never assigns and, when there
is one resume point, its resume function; each non-tail cps call evaluates
its arguments into temporaries, stores in the frame the other variables
live across it (and `f__resume_N`), and returns `g__cps(k, ...)`; the
resume point reads the frame in place, restores the variables and reads the
result.  Every way out drops the frame; `return v;` becomes cpc_return.  Spawns of calls
become a fresh continuation holding the arguments and a per-site thunk.
Calls to cpc_need_cont functions get `k` (NULL in native code) first.
Everything else is copied byte for byte; `#line` directives keep gcc's
messages on the .cpc file.

This module walks the file (`Emitter`); functions.py writes each cps
function, declarations.py what goes outside their bodies (prototypes,
values, spawn sites), frame.py decides a function's signature and frame,
split.py and lift.py its resume points and what each saves, and codegen.py
holds the text of each generated item.
"""
import re

from .. import cps_free
from .. import frontend as fe
from ..clang_types import is_cps_function_type, type_name
from ..analysis.gnu_attributes import has_annotation
from ..analysis.func import func
from ..analysis.syntax import callee_decl, callee_of
from .. import rewrite as rw
from ..analysis import retain
from . import codegen as cg
from . import preamble
from .declarations import EditList
from .functions import Functions

K = fe.K
TAG_DECLS = (K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL)


class Emitter(Functions):
    """The whole file: prototypes, file-scope values, every function."""

    def run(self):
        u = self.u
        self.first_decl = {}
        self.need_cont_aliases = set()
        self.large_bodies = False       # (a body is: preamble.large_body)
        self.tags = [c for c in u.top() if c.kind in TAG_DECLS and u.in_main_file(c)]
        for c in u.top():
            if c.kind == K.FUNCTION_DECL and u.in_main_file(c):
                self.first_decl.setdefault(c.spelling, c.extent.start.offset)
        # (every declaration's and function's errors, not the first one's)
        errors = fe.Collected()
        together = {}
        for c in u.top():
            if c.kind != K.FUNCTION_DECL or not u.in_main_file(c):
                continue
            with errors.part():
                self.declaration(c, together)
        for a, (b, protos) in together.items():
            kept = rw.directives_in(u, a, b) + self.tags_declared_in(a, b)
            self.edits.append((a, b, kept + '; '.join(protos) +
                               ('\n' + rw.resync(u, b) if kept else '')))
        # file-scope variables and functions in the order of the file: the
        # first that names a cps function declared only in a header declares
        # its entry (extern_proto), for those after it
        values = [c for c in u.top() if c.kind == K.VAR_DECL and u.in_main_file(c)]
        code = cps_free.code_defs(u)        # (the others are copied as written)
        for c in sorted(values + code, key=lambda c: c.extent.start.offset):
            with errors.part():
                if c.kind == K.VAR_DECL:
                    self.file_scope_values(c)
                    continue
                f = func(u, c)
                if f.is_cps:
                    self.cps_function(f)
                    self.large_bodies = self.large_bodies or self.large
                else:
                    self.native_function(f)
        errors.raise_any()
        # the pragma has done its work (boxing); gcc -Wall would warn about it
        for m in retain.PRAGMA_RE.finditer(u.text):
            a, b = m.start(), m.end()
            if not any(e[0] <= a < e[1] for e in self.edits):
                self.edits.append((a, b, '/* %s */' % u.text[a:b].decode(
                    'utf-8', 'surrogateescape').replace('*/', '* /')))
        body = rw.apply(u.text, self.edits).decode('utf-8', 'surrogateescape')
        return preamble.preamble(self.large_bodies) + '#line 1 "%s"\n' % rw.cstr(self.path) + body

    def declaration(self, c, together):
        """Function declaration c of the file: a cpc_need_cont function
        takes the continuation; the prototypes of a cps declaration go in
        `together` (start -> [end, prototypes])."""
        u = self.u
        if has_annotation(c, 'cpc_need_cont') and not is_cps_function_type(c.type):
            self.need_cont_param(c)
        if c.is_definition() or not is_cps_function_type(c.type):
            return
        # `cps int f(int), g(int);`: declarators sharing specifiers share a
        # start; they become one list of prototypes
        a = c.extent.start.offset
        b = rw.declarator_end(u, c.extent.end.offset)
        if a in together:
            together[a][0] = max(together[a][0], b)
            together[a][1].append(self.cps_proto(c))
        else:
            together[a] = [b, [self.cps_proto(c)]]
        self.note_entry_prototype(c, a)

    def file_scope_values(self, c):
        """The cps functions used as values in the initialiser of
        file-scope variable c."""
        u = self.u
        pre = []
        small = self.value_edits(c, pre)
        if small:
            self.edits.extend(rw.outermost(small))
            if pre:
                a = c.extent.start.offset
                self.edits.append((a, a, cg.placed_lines(rw.line_directive(u, a), pre) +
                                   rw.resync(u, a)))

    def native_function(self, f):
        if f.body is None:
            return
        if f.cps_calls:
            errs = []
            for call in f.cps_calls:
                callee = callee_decl(call)
                if callee is not None:
                    errs.append(self.diag(call, 'cps function `%s` called from native '
                                          'function `%s`; only cps functions and '
                                          'cpc_spawn may call it' % (callee.spelling, f.name)))
                else:
                    errs.append(self.diag(call, 'call through the cps function pointer `%s` '
                                          '(of type `%s`) in native function `%s`; only cps '
                                          'functions and cpc_spawn may call it' % (
                                              self.u.src(callee_of(call)),
                                              type_name(callee_of(call).type), f.name)))
            raise fe.Diags(errs)
        pre = []
        small = EditList(self.need_cont_edits(
            # (no macro: the function may be a rendering whose macros are
            # undefined around it, NULL included)
            f, 'cpc_k' if has_annotation(f.c, 'cpc_need_cont') else '(cpc_continuation *)0',
            pre))
        frames = []
        small += self.value_edits(f.body, pre)
        # prototypes first: the spawn thunks call the functions they declare
        self.external_protos(f, pre)
        self.spawn_edits(f, small, pre, frames, in_cps=False)
        self.edits.extend(rw.outermost(small))
        if pre or frames:
            self.insert_before(f, frames, pre)


# A `#line` directive followed at once by another one maps no line: it only
# makes the generated C harder to read.
SHADOWED_LINE_RE = re.compile(r'^#line [^\n]*\n(?=#line )', re.M)


def emit(u, resident=False):
    """The C of unit u; `resident`: --dataflow=frame (emit/frame.py)."""
    em = Emitter(u)
    em.resident = resident
    return SHADOWED_LINE_RE.sub('', em.run())
