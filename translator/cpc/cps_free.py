"""Translation units without cps code.

A C file of a CPC project (or a .cpc file with no cps code) translates to
its own text: no pass after the first parse finds anything to change or to
diagnose in it.  Running them anyway costs as much as parsing again: every
declaration of every header read for consistency and reserved names, every
expression of the file type-checked.  `has_cps_code(u)` tells, from the
unit whose conditional directives are pinned and whose headers defining cps
functions are inlined (so after the `conditionals` and `headers` passes:
before them, Clang may not have parsed the branch of an #if that gcc takes),
whether the main file may hold anything the later passes act on; when it
cannot, the pipeline writes the file as it is (`verbatim`).

What makes a unit hold cps code, conservatively (an identifier of the main
file, or of a macro it expands, transitively, is enough):

- a cps function defined anywhere in the unit (the headers pass inlined
  the headers that define them);
- a CPC keyword: `cps`, the statement keywords (their expansions name
  `__cpc_spawn_tag` and `__cpc_linked_tag`), `cpc_no_retain`,
  `cpc_need_cont`, `#pragma cpc_no_retain`;
- a name declared with a type that involves a cps function type at any
  level (a cps function, a pointer to one, a native function taking one, a
  typedef of one, a field or variable holding one), or a function taking
  the continuation (`cpc_need_cont`, such as `cpc_get_sched`): calls and
  values of these are rewritten or diagnosed;
- a name spelt like a generated one (`F__cps`, `F__spawn_1`, ...), which the
  reserved pass renames;
- a definition of `__attribute__` as a macro (which hides the cps tag);
- a macro that pastes tokens (`##`) among those the main file expands: the
  names it makes are not in any text.

The passes keep their invariants on such a unit trivially: its text is
theirs unchanged.
"""
import re

from . import frontend as fe
from .analysis.gnu_attributes import has_annotation
from .clang_types import is_cps_function_type
from .cursors import once_per_cursor
from . import reserved
from . import rewrite as rw
from . import typecheck
from .analysis import retain
from .emit.preamble import PREAMBLE
from .emit import cpsconv

K = fe.K

KEYWORD_NAMES = frozenset(('cps', '__cpc_spawn_tag', '__cpc_linked_tag', 'cpc_no_retain',
                           'cpc_need_cont'))
IDENT_RE = re.compile(rb'[A-Za-z_$][\w$]*')
DECL_KINDS = (K.FUNCTION_DECL, K.VAR_DECL, K.TYPEDEF_DECL)
RECORD_KINDS = (K.STRUCT_DECL, K.UNION_DECL)


def _names(text):
    return {m.decode('utf-8', 'surrogateescape') for m in IDENT_RE.findall(text)}


def _main_names(u):
    """The identifiers of the main file and of the macros it expands (their
    definitions, through the macros they name in turn)."""
    names = _names(u.text)
    macros = {}
    for c in u.top():
        if c.kind == K.MACRO_DEFINITION:
            macros.setdefault(c.spelling, c)
    todo = [n for n in names if n in macros]
    seen = set(todo)
    while todo:
        d = macros[todo.pop()]
        if d.location.file is None:
            continue            # the compiler's own (__clang__, __LINE__...)
        text = u.spelled(d)
        if text is None or b'##' in text:
            # a definition it cannot read, or one that pastes names
            # together (`cpc_ ## x`): assume the worst
            return None
        for n in _names(text):
            names.add(n)
            if n in macros and n not in seen:
                seen.add(n)
                todo.append(n)
    return names


def _involves_cps(t):
    """Type t is or holds a cps function type at some level (through
    pointers, arrays, typedefs, parameter and result types)."""
    if 'cpc_cps' in t.spelling:
        return True
    return _shape_has_cps(typecheck.shape(t))


def _shape_has_cps(s):
    if s is None:
        return False
    if s[0] == 'p':
        return _shape_has_cps(s[1])
    _, cps, result, params = s
    return cps or _shape_has_cps(result) or any(_shape_has_cps(p) for p in params or ())


def _fields(record):
    for ch in record.get_children():
        if ch.kind == K.FIELD_DECL:
            yield ch
        elif ch.kind in RECORD_KINDS:
            yield from _fields(ch)


def _acts_on(c):
    """Declaration c is one the later passes rewrite or diagnose uses of."""
    if c.kind == K.TYPEDEF_DECL:
        return _involves_cps(c.underlying_typedef_type)
    if c.kind == K.FUNCTION_DECL and has_annotation(c, 'cpc_need_cont'):
        return True
    return _involves_cps(c.type)


def has_cps_code(u):
    """The main file of unit u may hold something a pass after `headers`
    acts on (see the module's documentation); False only when none can."""
    for c in u.top():
        if c.kind == K.FUNCTION_DECL and c.is_definition() and \
                is_cps_function_type(c.type):
            return True
        if c.kind == K.MACRO_DEFINITION and c.spelling in ('__attribute__', '__attribute') \
                and u.in_main_file(c):
            return True
    if retain.PRAGMA_RE.search(u.text):
        return True
    names = _main_names(u)
    if names is None or names & KEYWORD_NAMES:
        return True
    if any(reserved.CPS_SUFFIX_RE.search(n) or reserved.ANY_SUFFIX_RE.search(n)
           for n in names):
        return True
    for c in u.top():
        if c.kind in DECL_KINDS:
            if c.spelling in names and _acts_on(c):
                return True
        elif c.kind in RECORD_KINDS:
            for f in _fields(c):
                if f.spelling in names and _involves_cps(f.type):
                    return True
    return False


# --------------------------------------------------------------------------
# Functions without cps code, in a unit that has some

def may_hold_cps(u, c):
    """Function definition c of the main file may hold something a pass
    after `headers` acts on, by the unit's criteria above applied to its own
    text: it is cps, or it names (itself or through the macros it expands)
    a CPC keyword, a declaration whose type involves a cps function type, a
    function taking the continuation or a name spelt like a generated one.
    A function that cannot is copied as it is written: the passes that
    rewrite or diagnose code skip it without walking its body."""
    return _Acting.of(u).may_hold(c)


def code_defs(u):
    """The function definitions of the main file that may hold cps code
    (u.function_defs() without the others), in order."""
    acting = _Acting.of(u)
    return [c for c in u.function_defs() if acting.may_hold(c)]


def skipped(u, c):
    """Top-level cursor c is a function definition without cps code (a
    walk over the main file's declarations passes it by)."""
    return c.kind == K.FUNCTION_DECL and c.is_definition() and not _Acting.of(u).may_hold(c)


# a definition of `__attribute__` as a macro (which hides the cps tag)
ATTRIBUTE_MACRO_RE = re.compile(rb'#\s*define\s+__attribute(__)?\b')
MEMBER_RE = re.compile(rb'(?:\.|->)\s*([A-Za-z_$][\w$]*)')


class _Acting:
    """Whether the functions of a unit may hold cps code, by the names they
    spell.  Whether a name acts (a declaration or a field of that name that
    the later passes act on) is asked of the unit once per name, for the
    names of the functions asked about only, and kept in `u.carried` for
    the next parses of the same translation: the passes leave alone the
    functions without cps code and the headers' declarations (a name that
    the passes add is asked of the parse that has it)."""

    @classmethod
    def of(cls, u):
        r = u.__dict__.get('_cps_acting')
        if r is None:
            r = u.__dict__['_cps_acting'] = cls(u)
            r.ask(u.function_defs())
        return r

    def __init__(self, u):
        self.u = u
        known = u.carried.setdefault('cps_free', {'decls': {}, 'fields': {}, 'macros': {}})
        self.acts = known['decls']          # name -> whether a declaration of it acts
        self.field_acts = known['fields']   # name -> whether a field of it acts
        # name -> (the names, whether it accesses a member) of each of its
        # definitions as a macro ([] for a name that is not a macro), None
        # when one of them cannot be read or pastes names together
        self.macro_bodies = known['macros']
        self.everything = retain.PRAGMA_RE.search(u.text) is not None or \
            ATTRIBUTE_MACRO_RE.search(u.text) is not None

    def ask(self, defs):
        """Ask the unit at once about the names of definitions `defs` (one
        walk over the unit's declarations instead of one per function)."""
        missing, members = set(), set()
        for c in defs:
            spelt = self._spelt(c)
            if spelt is not None and not self._by_its_names(spelt[0]):
                missing.update(n for n in spelt[0] if n not in self.acts)
                members.update(n for n in spelt[1] if n not in self.field_acts)
        self._learn(missing)
        self._learn_fields(members)

    def may_hold(self, c):
        return once_per_cursor(c, 'may_hold_cps', self._may_hold)

    def _may_hold(self, c):
        spelt = self._spelt(c)
        if spelt is None:
            return True
        names, members = spelt
        return self._by_its_names(names) or self._any_acts(names) or \
            self._any_field_acts(members)

    @staticmethod
    def _by_its_names(names):
        """A CPC keyword or a name spelt like a generated one among names."""
        return not names.isdisjoint(KEYWORD_NAMES) or \
            any(reserved.CPS_SUFFIX_RE.search(n) or reserved.ANY_SUFFIX_RE.search(n)
                for n in names if '__' in n)

    def _spelt(self, c):
        """(names, member names) that definition c spells, itself and
        through the macros it expands; None when it is cps or when they
        cannot be told."""
        return once_per_cursor(c, 'cps_free_spelt', self._spelling)

    def _spelling(self, c):
        if self.everything or is_cps_function_type(c.type):
            return None
        e = c.extent
        text = self.u.text[e.start.offset:e.end.offset]
        names = _names(text)
        members = {m.decode('utf-8', 'surrogateescape') for m in MEMBER_RE.findall(text)}
        todo = list(names)
        seen = set(todo)
        accesses = False
        while todo:
            bodies = self._bodies(todo.pop())
            if bodies is None:
                return None
            for more, access in bodies:
                names |= more
                accesses = accesses or access
                todo.extend(n for n in more if n not in seen)
                seen |= more
        # (a macro that accesses a member may take its name as an argument)
        return names, (names if accesses else members)

    def _bodies(self, name):
        try:
            return self.macro_bodies[name]
        except KeyError:
            pass
        r = []
        for d in self.u.macro_definitions(name):
            if d.location.file is None:
                continue            # the compiler's own
            body = self.u.spelled(d)
            if body is None or b'##' in body:
                r = None            # unreadable, or pasting names together
                break
            r.append((_names(body), MEMBER_RE.search(body) is not None))
        self.macro_bodies[name] = r
        return r

    def _learn(self, missing):
        """Whether a declaration of each name of `missing` acts."""
        if not missing:
            return
        for n in missing:
            self.acts[n] = False
        for d in self.u.top():
            if d.kind in DECL_KINDS and d.spelling in missing and \
                    not self.acts[d.spelling] and _acts_on(d):
                self.acts[d.spelling] = True

    def _any_acts(self, names):
        self._learn({n for n in names if n not in self.acts})
        return any(self.acts[n] for n in names)

    def _learn_fields(self, missing):
        """Whether a field (of a record at file scope) of each name of
        `missing` acts."""
        if not missing:
            return
        for n in missing:
            self.field_acts[n] = False
        for d in self.u.top():
            if d.kind in RECORD_KINDS:
                for f in _fields(d):
                    if f.spelling in missing and not self.field_acts[f.spelling] and \
                            _involves_cps(f.type):
                        self.field_acts[f.spelling] = True

    def _any_field_acts(self, members):
        self._learn_fields({n for n in members if n not in self.field_acts})
        return any(self.field_acts[n] for n in members)


def verbatim(u):
    """The C of a unit without cps code: its text as it is (what the
    emitter writes for it)."""
    return cpsconv.SHADOWED_LINE_RE.sub('', PREAMBLE + '#line 1 "%s"\n' % rw.cstr(u.path) +
                                        u.text.decode('utf-8', 'surrogateescape'))
