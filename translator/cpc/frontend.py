"""Front-end: Clang (libclang 18 via the PyPI bindings) set up for CPC.

Invariant: `parse(text, path, args)` returns a `Unit` whose AST is Clang's
view of CPC source `text` (the header read with -D__CPC_FRONTEND__); source
offsets index `text` exactly (the spelling `__attribute__((cps))` is replaced
by `cps` padded with spaces, so offsets do not move; cps_spelling.py, which
does the same for the headers the file includes).  What the Python
bindings lack is in libclang.py; the cursors and types the passes read, in
cursors.py and clang_types.py.
"""
import bisect
import contextlib
import ctypes
import os
import re

import clang.cindex as ci

from . import cps_spelling
from . import paths
from .cursors import adopt, once_per_cursor, place, subtrees
from .libclang import lib, presumed, spelling_offset

TOP = paths.CHECKOUT
RUNTIME_INCLUDE = paths.INCLUDE_DIR
# headers that only the front-end reads, in front of the others: where Clang's own
# headers refuse what gcc's accept (frontend_include/stdatomic.h says how)
FRONTEND_INCLUDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'frontend_include')



def resource_dir():
    """Clang's resource headers: Debian's libclang-common-19-dev (pinned)."""
    env = os.environ.get('CPC_CLANG_RESOURCE_DIR')
    if env:
        return env
    for v in ('19', '18'):
        d = '/usr/lib/llvm-%s/lib/clang/%s' % (v, v)
        if os.path.isfile(os.path.join(d, 'include', 'stddef.h')):
            return d
    return None


K = ci.CursorKind


# --------------------------------------------------------------------------
# Parsing

# A line marker with flags (`# 200 "xyz" 2 3`: 1 enters a file, 2 returns to
# one, 3 and 4 a system header), as preprocessors write them.  gcc keeps a stack
# of the files entered (flag 1) and ignores, with a warning, a return (flag 2)
# to a file that is not the one it entered from; Clang refuses such a marker
# ("cannot pop empty include stack").  The front-end reads the markers as gcc
# does: without their flags (blanked), and an ignored one not at all (blanked
# whole), so that lines and file names, `__LINE__` in a rendering included, are
# gcc's.  Offsets are kept; the program's text keeps the markers for the C
# compiler.
# a directive that brings another file's text in (written in a declaration:
# its tokens there are not the main file's)
_INCLUDE_RE = re.compile(rb'#\s*(?:include|import|embed)')
# CXCursor_FirstAttr up to the preprocessing kinds: an attribute that a
# declaration inherits from an earlier one is listed among its children but
# spelt where that one is (in a header, maybe)
_ATTRIBUTE_KIND_IDS = range(400, 500)
LINE_MARKER_RE = re.compile(rb'^[ \t]*#[ \t]*(line[ \t]+)?\d+[ \t]+"((?:[^"\\\n]|\\.)*)"'
                            rb'((?:[ \t]+\d+)*)[ \t]*$', re.M)


def line_markers_as_gcc_reads_them(text, path):
    """`text` (of file `path`) with the flags of its line markers blanked,
    and the markers gcc ignores blanked whole (same length)."""
    if b'"' not in text or b'#' not in text:
        return text
    out, last = [], 0
    current, entered = path.encode('utf-8', 'surrogateescape'), []
    for m in LINE_MARKER_RE.finditer(text):
        name, flags = m.group(2), m.group(3).split()
        if m.group(1) or not flags:
            current = name
            continue
        if b'2' in flags and not (entered and entered[-1] == name):
            keep = m.start()                   # ignored by gcc
        else:
            if b'1' in flags:
                entered.append(current)
            elif b'2' in flags:
                entered.pop()
            current = name
            keep = m.start(3)
        out += [text[last:keep], re.sub(rb'[^\n]', b' ', text[keep:m.end()])]
        last = m.end()
    if not out:
        return text
    out.append(text[last:])
    return b''.join(out)


class Diag(Exception):
    """A user-facing diagnostic: file:line:col: error: message."""

    def __init__(self, msg, file=None, line=0, col=0, notes=(), from_clang=False):
        super().__init__(msg)
        self.msg = msg
        self.from_clang = from_clang      # Clang's own error (clang_limits.py)
        self.file = file
        self.line = line
        self.col = col
        self.notes = list(notes)

    def format(self):
        where = ''
        if self.file:
            where = '%s:%d:%d: ' % (self.file, self.line, self.col)
        out = where + 'error: ' + self.msg
        for n in self.notes:
            out += '\n' + n
        return out


class Diags(Exception):
    def __init__(self, diags):
        super().__init__('; '.join(d.msg for d in diags))
        self.diags = diags


def in_order(diags):
    """diags by place: the files in the order they first appear, each by
    line and column (stable: notes of one place keep their order)."""
    files = {}
    for d in diags:
        files.setdefault(d.file, len(files))
    return sorted(diags, key=lambda d: (files[d.file], d.line, d.col))


class Collected:
    """Errors gathered across the independent parts of a unit (functions,
    passes that only diagnose), so that one run reports them all:
    `with collected.part(): ...` keeps the Diags a part raises, and
    `raise_any()` raises them together, in order.  An error that several
    parts find (one about a declaration that every part reads) is kept
    once: the same message at the same place."""

    def __init__(self):
        self.diags = []
        self._seen = set()

    @contextlib.contextmanager
    def part(self):
        try:
            yield
        except Diags as e:
            for d in e.diags:
                key = (d.file, d.line, d.col, d.msg)
                if key not in self._seen:
                    self._seen.add(key)
                    self.diags.append(d)

    def raise_any(self):
        if self.diags:
            raise Diags(in_order(self.diags))


PARSE_INCLUDE_ATTRIBUTED_TYPES = 0x1000   # CXTranslationUnit_IncludeAttributedTypes

# `_Float128` (ISO/IEC TS 18661-3, which gcc knows) is `__float128` to this
# Clang, which has no keyword for it (and glibc's headers give it none).
# Clang stops at 256 nested brackets (parentheses, braces, square brackets),
# gcc at none: the limit is raised beyond what the passes' walks can hold
# (depth.py), which reports a program deeper still.
FRONTEND_FLAGS = [
    '-x', 'c', '-std=gnu11', '-D__CPC_FRONTEND__', '-D_Float128=__float128',
    '-Wno-error=int-conversion', '-Wno-error=implicit-function-declaration',
    '-Wno-error=incompatible-pointer-types', '-Wno-error=return-type',
    '-Wno-error=implicit-int', '-Wno-dangling-else',
    '-ferror-limit=50', '-fbracket-depth=100000',
]


def _release_memo(memo):
    """Release what a cursor's memo holds that has a `release_analysis` (a Func: its
    graph's nodes and its Vars refer to each other, cycles that only the
    garbage collector would otherwise free, going through them again)."""
    for v in memo.values():
        r = getattr(v, 'release_analysis', None)
        if r is not None:
            r()


class Unit:
    def __init__(self, tu, text, path):
        self.tu = tu
        self.text = text          # bytes
        self.path = path
        self._line_starts = None
        self._macros = None
        self._macro_every = None
        self._main_file = None
        self._top = None
        self._main_top = None
        self._defs = None
        self._files = {}          # libclang's file handle -> its bytes (spelled)
        # what an analysis learnt of the headers' declarations, which the
        # passes do not change: the next parse of the same translation
        # starts with it (pipeline.step), so it is not asked again
        self.carried = {}
        self.lender = None        # the reparse.Reparser whose unit this is (one of its parses)
        self.own = None           # (then) its own top-level cursors
        self.lent = False         # a reparse.Reparser reads the preamble's cursors from this unit
        # None, or the extents (start, end) of the main file's declarations
        # a pass may act on: main_top() and function_defs() list only those
        # (and the preprocessor's entities) while a pass of a round runs on
        # the declarations whose text is what it would be given (rounds.py)
        self.scope = None

    def release(self):
        """Drop what this parse's cursors hold (children, preorders, the
        analyses' memos): the unit is done with.  Those facts and the
        cursors refer to each other (a cursor's memo holds the Func that
        holds the cursor, a node's place holds the preorder that holds the
        node), so without this only the garbage collector would free them,
        going through each of them again; emptied, they go as soon as the
        last reference does.  Nothing of the unit may be used afterwards."""
        if self.lent or self.tu is None:
            return          # (a Reparser's base: the translation's; or released)
        subs = subtrees(self.tu)
        self.tu.cpc_subtrees = []
        for sub in subs:
            for n in sub.nodes:
                d = n.__dict__
                if d.get('memo'):
                    _release_memo(d['memo'])
                d.clear()
            sub.nodes = sub.parents = sub.ends = None
            sub.memo = sub.facts = None
        self._top = self._main_top = self._defs = self.own = None

    # what a cursor of the listing keeps when its subtree is released
    _LISTING_KEYS = ('_tu', 'kind', 'in_main_file')

    def release_main_file_code(self):
        """Drop what the analyses hold on the main file's declarations (as
        release() does, keeping of each cursor what the listing needs),
        leaving the listing (`top()`) and the headers' cursors as they are:
        a unit that a reparse.Reparser lends its preamble's cursors from
        lives as long as the translation, and what the passes derived from
        its code would otherwise be gone through by every collection of
        the garbage collector after it (collected_per_parse)."""
        kept = []
        for sub in subtrees(self.tu):
            root = sub.nodes[0]
            if not (root.__dict__.get('in_main_file') and not root.kind.is_preprocessing()):
                kept.append(sub)
                continue
            for n in sub.nodes:
                d = n.__dict__
                if d.get('memo'):
                    _release_memo(d['memo'])
                listing = {k: d[k] for k in self._LISTING_KEYS if k in d}
                d.clear()
                d.update(listing)
            sub.nodes = sub.parents = sub.ends = None
            sub.memo = sub.facts = None
        self.tu.cpc_subtrees = kept
        self._defs = None

    def top(self):
        """The translation unit's top-level cursors (one list per parse)."""
        if self._top is None:
            if self.lender is None:
                self._top = list(adopt(self.tu.cursor).children)
            else:
                self._top = self.lender.top(self, self.own)
        return self._top

    def main_top(self):
        """The top-level cursors of the main file, in order (the passes
        walk those; the headers' thousands are asked once, in one loop,
        and each cursor keeps the answer for in_main_file); within a
        `scope`, its declarations only."""
        if self.scope is None:
            return self.all_main_top()
        return [c for c in self.all_main_top() if self.in_scope(c)]

    def all_main_top(self):
        """main_top() whatever the scope."""
        if self._main_top is None:
            in_main = self._expanded_in_main_file()
            out = []
            for c in self.top():
                d = c.__dict__
                r = d.get('in_main_file')
                if r is None:
                    r = d['in_main_file'] = in_main(c)
                if r:
                    out.append(c)
            self._main_top = out
        return self._main_top

    def in_scope(self, c):
        """Top-level cursor c of the main file is one a pass acts on now:
        any without a scope; the preprocessor's entities; a declaration
        whose extent the scope lists."""
        if self.scope is None or c.kind.is_preprocessing():
            return True
        e = c.extent
        return (e.start.offset, e.end.offset) in self.scope

    def function_defs(self):
        """The function definitions written in the main file, in order
        (within a `scope`, its own)."""
        if self._defs is None:
            self._defs = [c for c in self.all_main_top()
                          if c.kind == K.FUNCTION_DECL and c.is_definition()]
        if self.scope is None:
            return self._defs
        return [c for c in self._defs if self.in_scope(c)]

    def loc_of(self, cursor):
        """(file, line, col) presumed location of a cursor (its expansion
        point for macros; its location when it has no extent, as an
        implicit declaration)."""
        start = cursor.extent.start if cursor.extent else None
        f, line, col = presumed(start if start is not None and start.file is not None
                                else cursor.location)
        return f or self.path, line, col

    def diag(self, cursor, msg, notes=()):
        f, line, col = self.loc_of(cursor)
        return Diag(msg, f, line, col, notes)

    def src(self, cursor):
        e = cursor.extent
        return self.text[e.start.offset:e.end.offset].decode('utf-8', 'surrogateescape')

    def in_main_file(self, cursor):
        return once_per_cursor(cursor, 'in_main_file', self._in_main_file)

    def _in_main_file(self, cursor):
        # the file of the expansion location, compared as libclang's handle
        # (no Python object per cursor: the passes ask it of every
        # declaration of every header)
        main = self.main_file()
        if main is None:
            loc = cursor.location
            return loc.file is not None and loc.file.name == self.path
        f = ctypes.c_void_p()
        lib().clang_getExpansionLocation(cursor.location, ctypes.byref(f), None, None, None)
        return f.value == main

    def spelled(self, cursor):
        """The bytes that spell `cursor` in the file where it is written
        (the main file's text, or a header read once per unit), or None
        when they cannot be told (a macro expansion, a file not on disk)."""
        e = cursor.extent
        fa, a = spelling_offset(e.start)
        fb, b = spelling_offset(e.end)
        if fa is None or fa != fb or b < a:
            return None
        if fa == self.main_file() or \
                (self.lender is not None and fa == self.lender.base.main_file()):
            # (the base's main file: the preamble, which is u's text too)
            return self.text[a:b]
        files = self._files
        if fa not in files:
            name = ci._CXString.from_result(lib().clang_getFileName(fa))
            try:
                with open(name, 'rb') as fh:
                    files[fa] = fh.read()
            except OSError:
                files[fa] = None
        text = files[fa]
        return None if text is None or b > len(text) else text[a:b]

    def main_file(self):
        """libclang's handle of the main file (to compare spelling locations)."""
        if self._main_file is None:
            self._main_file = spelling_offset(self.tu.get_location(self.path, 0))[0]
        return self._main_file

    def written(self, cursor):
        """(a, b): the bytes of the main file that spell `cursor`, where a
        rewrite of it goes; None when it is not written as such in the file
        (it comes from a macro's body, token pasting, or another file).  A
        cursor inside a macro argument is written in the argument: the
        expansion location (Clang's extent) would put the rewrite in front
        of the macro's name."""
        e = cursor.extent
        a, b = e.start.offset, e.end.offset
        if cursor._kind_id not in _ATTRIBUTE_KIND_IDS and self.in_plain_main_code(cursor) \
                and not self.touches_macro(a, b):
            sa, sb = a, b       # (spelt where it is expanded: no need to ask)
        else:
            fa, sa = spelling_offset(e.start)
            fb, sb = spelling_offset(e.end)
            main = self.main_file()
            if fa != main or fb != main:
                return None
        if sb <= sa:
            return None
        if (sa, sb) != (a, b):
            # inside a macro argument: the range must lie in the invocation
            inside = False
            for (s, t) in self.macro_ranges():
                if s > sa:
                    break
                if s <= sa and sb <= t:
                    inside = True
                    break
            if not inside:
                return None
        if cursor.kind == K.DECL_REF_EXPR and \
                self.text[sa:sb] != cursor.spelling.encode('utf-8', 'surrogateescape'):
            return None
        return sa, sb

    def in_plain_main_code(self, cursor):
        """Cursor c lies in the listing of a top-level declaration of the
        main file whose text includes no file (every token of it is then
        the main file's, where no macro expands): known from the listing
        (`place`) and the declaration's text, once per declaration."""
        where = cursor.__dict__.get('place')
        if where is None:
            return False
        sub = where[0]
        memo = sub.memo
        r = memo.get('plain main code')
        if r is None:
            root = sub.nodes[0]
            r = False
            if root.__dict__.get('in_main_file'):
                e = root.extent
                r = _INCLUDE_RE.search(self.text, e.start.offset, e.end.offset) is None
            memo['plain main code'] = r
        return r

    def touches_macro(self, a, b):
        """Some macro invocation of the main file overlaps or touches the
        range [a, b] of the file."""
        self.macro_ranges()
        i = bisect.bisect_right(self._macro_starts, b)
        return i > 0 and self._macro_reach[i - 1] >= a

    def macro_ranges(self):
        if self._macros is None:
            rs = []
            names = []
            defs = {}
            every = {}
            # (the main file's invocations are among its top-level cursors,
            # which all_main_top() found once per parse)
            for c in self.all_main_top():
                if c.kind == K.MACRO_INSTANTIATION:
                    e = c.extent
                    rs.append((e.start.offset, e.end.offset))
                    names.append((e.start.offset, e.end.offset, c.spelling))
            for c in self.top():
                if c.kind == K.MACRO_DEFINITION:
                    defs[c.spelling] = c
                    every.setdefault(c.spelling, []).append(c)
            rs.sort()
            names.sort()
            # (for touches_macro: the starts, and the furthest end so far)
            self._macro_starts = [r[0] for r in rs]
            reach, far = [], -1
            for r in rs:
                far = max(far, r[1])
                reach.append(far)
            self._macro_reach = reach
            self._macros = rs
            self._macro_names = names
            self._macro_defs = defs
            self._macro_every = every
            self._stringifies = {}
        return self._macros

    def _expanded_in_main_file(self):
        """A test of whether a cursor's location is in the main file,
        without a Python object for the file (macro_ranges asks it of every
        macro invocation of every header)."""
        main = self.main_file()
        if main is None:
            return lambda c: c.location.file is not None and c.location.file.name == self.path
        f = ctypes.c_void_p()
        where = ctypes.byref(f)
        expansion = lib().clang_getExpansionLocation

        def in_main(c):
            expansion(c.location, where, None, None, None)
            return f.value == main
        return in_main

    def macro_names(self):
        """The names of every macro the unit defines (builtin, on the command
        line, in a header or in the file)."""
        self.macro_ranges()
        return self._macro_defs.keys()

    def macro_definitions(self, name):
        """Every definition of macro `name` in the unit, in order ([] for a
        name that is not one)."""
        if self._macro_every is None:
            # (macro_ranges lists them too, with the file's invocations)
            every = self._macro_every = {}
            for c in self.top():
                if c.kind == K.MACRO_DEFINITION:
                    every.setdefault(c.spelling, []).append(c)
        return self._macro_every.get(name, ())

    def stringifying_macro_in(self, a, b):
        """True if a macro invoked in the file range [a, b), or any macro its
        definition names, stringifies or pastes (`#`, `##`): rewriting the
        text of an argument there would change a string."""
        return self._macro_in(a, b, self._macro_stringifies)

    def spells_cps_in(self, a, b):
        """True if a macro invoked in the file range [a, b) expands to the
        `cps` keyword (directly or through the macros it names: `#define
        CPS cps`)."""
        return self._macro_in(a, b, self._macro_names_cps)

    def _macro_in(self, a, b, is_one):
        """Whether is_one(name, seen) holds for a macro invoked in [a, b)."""
        self.macro_ranges()
        for (s, t, name) in self._macro_names:
            if s >= b:
                break
            if s >= a and is_one(name, set()):
                return True
        return False

    def _macro_names_cps(self, name, seen):
        d = self._macro_defs.get(name)
        if d is None or name in seen:
            return False
        seen.add(name)
        for tk in list(d.get_tokens())[1:]:
            sp = tk.spelling
            if sp in ('cps', 'cpc_cps', '"cpc_cps"'):
                return True
            if tk.kind == ci.TokenKind.IDENTIFIER and sp in self._macro_defs and \
                    self._macro_names_cps(sp, seen):
                return True
        return False

    def _macro_stringifies(self, name, seen):
        r = self._stringifies.get(name)
        if r is not None:
            return r
        d = self._macro_defs.get(name)
        if d is None or name in seen:
            return False
        seen.add(name)
        r = False
        toks = list(d.get_tokens())
        for tk in toks[1:]:
            sp = tk.spelling
            if sp in ('#', '##', '%:', '%:%:'):
                r = True
                break
            if tk.kind == ci.TokenKind.IDENTIFIER and sp != name and \
                    sp in self._macro_defs and self._macro_stringifies(sp, seen):
                r = True
                break
        self._stringifies[name] = r
        return r

    def in_macro(self, cursor):
        """The macro invocation range that produced `cursor` (whose extent
        lies within it), or None: its text is then not its own."""
        e = cursor.extent
        a, b = e.start.offset, e.end.offset
        best = None
        for (s, t) in self.macro_ranges():
            if s > a:
                break
            if s <= a and b <= t:
                if best is None or t - s > best[1] - best[0]:
                    best = (s, t)
        return best


_index = None


def _flags(args):
    flags = list(FRONTEND_FLAGS)
    rd = resource_dir()
    if rd:
        flags += ['-resource-dir', rd]
    flags += ['-I' + FRONTEND_INCLUDE, '-I' + RUNTIME_INCLUDE]
    flags += list(args)
    # always reported, whatever the user's flags: typecheck tells an
    # implicit-int declaration (`cps *p;`) from `cps` on an object by it
    flags += ['-Wimplicit-int', '-Wno-error=implicit-int']
    return flags


PARSE_OPTIONS = (ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD |
                 PARSE_INCLUDE_ATTRIBUTED_TYPES)


def _unsaved(text, path, args):
    return [(path, line_markers_as_gcc_reads_them(text, path))] + \
        cps_spelling.unsaved_headers(text, path, args)


def _errors(tu, path):
    errs = []
    for d in tu.diagnostics:
        if d.severity >= ci.Diagnostic.Error:
            loc = d.location
            fname = loc.file.name if loc.file else path
            pf, pl, pc = presumed(loc) if loc.file else (fname, 0, 0)
            errs.append(Diag(d.spelling, pf or fname, pl, pc, from_clang=True))
    return errs


def parse(text, path, args=(), check=True):
    """Parse CPC `text` (bytes or str) as file `path`."""
    global _index
    lib()
    if isinstance(text, str):
        text = text.encode('utf-8', 'surrogateescape')
    text = cps_spelling.mask(text)
    if _index is None:
        _index = ci.Index.create()
    try:
        tu = _index.parse(path, args=_flags(args), unsaved_files=_unsaved(text, path, args),
                          options=PARSE_OPTIONS)
    except ci.TranslationUnitLoadError as e:
        raise Diags([Diag('cannot parse %s: %s' % (path, e))])
    u = Unit(tu, text, path)
    if check:
        errs = _errors(tu, path)
        if errs:
            raise Diags(errs)
    return u


def implicit_int_offsets(u):
    """Offsets in the main file of the declarators that Clang reports as
    declared with implicit int (`-Wimplicit-int` points at the declarator's
    name); a header's are not: their offsets are another file's."""
    return {d.location.offset for d in u.tu.diagnostics
            if d.option == '-Wimplicit-int' and d.location.file is not None and
            d.location.file.name == u.path}


