"""Parsing again the main file only: after the passes that fix the headers,
a file whose headers are most of each parse is parsed in place with a
precompiled preamble (`Reparser`), its units listing what full parses list.

Invariant: a unit that `Reparser.parse(text, path)` returns lists, in
`top()`, the cursors a full parse of `text` (frontend.parse) lists, in the
same order, with the same answers; a text for which that cannot hold gets a
full parse.
"""
import os
import re

import clang.cindex as ci

from .cursors import adopt
from . import cps_spelling
from .frontend import (Diag, Diags, K, PARSE_OPTIONS, Unit, parse, _errors, _flags,
                       _unsaved)

PARSE_PRECOMPILED_PREAMBLE = 0x04             # CXTranslationUnit_PrecompiledPreamble
PARSE_CREATE_PREAMBLE_ON_FIRST_PARSE = 0x100  # CXTranslationUnit_CreatePreambleOnFirstParse

# a line directive (`#line 7 "f.h"`, `# 7 "f.h" 1`)
LINE_DIRECTIVE_RE = re.compile(rb'^[ \t]*#[ \t]*(?:line[ \t]|[0-9])', re.M)

_local_index = None      # lists a translation unit's own declarations, not its preamble's


class Reparser:
    """Parses of one translation after its headers are fixed, each costing
    the main file only.  The first one precompiles the preamble (the
    headers the file includes before its first line of code) into a
    translation unit that is parsed again in place for each new text
    (libclang's reparse with the text as an unsaved file): the headers are
    not parsed again.  Such a unit lists as its own the preprocessor's
    entities that follow the preamble, not the preamble's, and more
    declarations than its own: `top()` takes the preamble's entities and
    declarations from `base`, a full parse of the same headers (kept for
    the translation), and the unit's after them, so that it lists what a
    full parse lists, in the same order.  A
    parse in place makes the cursors of the unit before it invalid: that
    unit is released first, and must not be used afterwards (the pipeline
    only releases it)."""

    # Precompiling the preamble costs about one more parse of the headers;
    # parsing the main file alone saves their parse and the listing of
    # their cursors at each parse after it.  It pays when the headers are
    # most of each parse: measured by their top-level cursors against the
    # main file's bytes (a generated 5,000-line file with the C library's
    # small headers: 3,000 against 160 KB, slower; QEMU's qcow2.c, 20,000
    # against 60 KB, and a file with glib's headers, faster).
    HEADER_CURSORS_PER_BYTE = 1 / 20

    @classmethod
    def worth(cls, u):
        """Whether parsing u's main file alone pays (u: a full parse), and
        is possible (`possible`)."""
        main = u.main_top()
        if len(u.top()) - len(main) <= cls.HEADER_CURSORS_PER_BYTE * len(u.text):
            return False
        return cls.possible(u)

    @classmethod
    def possible(cls, u):
        """Whether the parses of u's main file alone list what full parses
        do, and read what they read.  libclang gives no tokens for a range
        that starts in the preamble and ends after it, which is what a
        cursor has whose first token is spelt in the body of a macro
        defined in the main file's preamble (`#define WEAK
        __attribute__((weak))`, or `#define W weak` used as
        `__attribute__((W))`, before the first line of code): a file with a
        macro there that may spell such a token (`spells_read_tokens`) is
        parsed whole.  One whose replacement is literals and punctuators
        (`#define NOT_DONE 0x7fffffff`) gives no cursor whose tokens are
        read.  And libclang lists as a unit's own declarations
        those the parser hands over, which leave out a tag that a
        function's declaration declares in its result type (`cps struct
        node *first(struct node *n) {...}`, before any other mention of the
        struct): such a file is parsed whole too.  So is a file with a line
        directive (`#line 1 "h.h"`, a header inlined at its top) before its
        first line of code: a parse in place places the code after the
        preamble in the main file, not where the directive says."""
        main = u.main_top()
        code = [c.extent.start.offset for c in main if not c.kind.is_preprocessing()]
        first = min(code) if code else len(u.text)
        if LINE_DIRECTIVE_RE.search(u.text, 0, first):
            return False
        functions = [(c.extent.start.offset, c.extent.end.offset) for c in main
                     if c.kind == K.FUNCTION_DECL]
        for c in main:
            if c.kind == K.MACRO_DEFINITION and c.extent.start.offset < first and \
                    cls.spells_read_tokens(c):
                return False
            if c.kind in (K.STRUCT_DECL, K.UNION_DECL, K.ENUM_DECL):
                a, b = c.extent.start.offset, c.extent.end.offset
                if any(s <= a and b <= t for (s, t) in functions):
                    return False
        return True

    # The translator asks libclang for the tokens of macro definitions
    # (which a parse in place takes from base), of attributes
    # (analysis/gnu_attributes.py) and of `sizeof`-like operators
    # (analysis/syntax.py: sizeof_evaluated).  Such a cursor's range starts
    # at a name or keyword (the attribute's, `_Alignas`, `sizeof`, `asm`) or
    # at `[[`: a macro whose replacement spells none of these, other than
    # its parameters (whose tokens are the arguments', written where it is
    # used), starts no such range.
    @staticmethod
    def spells_read_tokens(definition):
        """Whether the replacement list of macro `definition` may spell the
        first token of a range whose tokens the translator reads: a name
        or keyword that is not one of its parameters, `[` (or `<:`), or
        `#` and `##` (which make new tokens)."""
        toks = list(definition.get_tokens())
        params = set()
        body = toks[1:]
        if len(toks) > 1 and toks[1].spelling == '(' and \
                toks[1].extent.start.offset == toks[0].extent.end.offset:
            # a function-like macro: its parameters up to the `)`
            for i, t in enumerate(toks[2:], 2):
                if t.spelling == ')':
                    body = toks[i + 1:]
                    break
                params.add(t.spelling)
            if '...' in params:
                params.update(('__VA_ARGS__', '__VA_OPT__'))
        names = (ci.TokenKind.IDENTIFIER, ci.TokenKind.KEYWORD)
        for t in body:
            if t.kind in names and t.spelling not in params:
                return True
            if t.kind == ci.TokenKind.PUNCTUATION and \
                    t.spelling in ('[', '<:', '#', '##', '%:', '%:%:'):
                return True
        return False

    def __init__(self, base, args):
        self.base = base
        self.args = list(args)
        self.tu = None
        self.current = None
        self.split = None           # the preamble's (entities, declarations): base's
        self.end = None             # where the units' own start in the main file
        base.lent = True            # (its release leaves it as it is)
        # (each cursor knows whether it is the main file's)
        code = [c.extent.start.offset for c in base.main_top()
                if not c.kind.is_preprocessing()]
        self.code = min(code) if code else None     # where base's code starts
        base.release_main_file_code()

    def parse(self, text, path):
        if isinstance(text, str):
            text = text.encode('utf-8', 'surrogateescape')
        text = cps_spelling.mask(text)
        unsaved = _unsaved(text, path, self.args)
        if self.current is not None:
            self.current.release()
            self.current.tu = None
            self.current = None
        if self.tu is not None:
            # what the analyses keep on the unit's object (cursors.subtrees,
            # analysis.syntax.parse_cache: `cpc_` attributes), keyed by
            # cursors whose bytes a new parse reuses for other nodes
            for k in [k for k in vars(self.tu) if k.startswith('cpc_')]:
                delattr(self.tu, k)
        if self.tu is None:
            global _local_index
            if _local_index is None:
                _local_index = ci.Index.create(excludeDecls=True)
            opts = PARSE_OPTIONS | PARSE_PRECOMPILED_PREAMBLE | \
                PARSE_CREATE_PREAMBLE_ON_FIRST_PARSE
            try:
                self.tu = _local_index.parse(path, args=_flags(self.args),
                                             unsaved_files=_unsaved(self.preamble_only(text),
                                                                    path, self.args),
                                             options=opts)
            except ci.TranslationUnitLoadError as e:
                raise Diags([Diag('cannot parse %s: %s' % (path, e))])
        # (the parse that makes the preamble lists more than its own: the
        # unit is read after a parse that uses it)
        if not _reparse(self.tu, unsaved):
            self.tu = None
            raise Diags([Diag('cannot parse %s again' % path)])
        u = Unit(self.tu, text, path)
        u.lender = self
        errs = _errors(self.tu, path)
        if errs:
            raise Diags(errs)
        self.current = u
        # The preamble must be base's: the text before u's own is base's,
        # and u's own start where the first unit's did (a directive written
        # where the code started would have joined the preamble).
        u.own = list(adopt(self.tu.cursor).children)
        starts = [c.extent.start.offset for c in u.own if u.in_main_file(c)]
        end = min(starts) if starts else len(text)
        if self.end is None:
            self.end = end
        if end != self.end or text[:end] != self.base.text[:end]:
            return parse(text, path, self.args)
        return u

    def preamble_only(self, text):
        """The text that the parse making the preamble is given: `text`
        up to its first token outside a directive from where base's code
        starts on (an edit there may have written directives, `#line`,
        which join the preamble), then one declaration.  The preamble ends
        at that token or before it in both texts, so it is the same; the
        code after it is not parsed twice (the unit is read after a parse
        of `text` that uses the preamble)."""
        if self.code is None or self.code > len(text):
            return text
        return text[:after_directives(text, self.code)] + b'int cpc__preamble_end;\n'

    def top(self, u, own):
        """What a full parse of u lists, in the same order: the
        preprocessor's entities, then the declarations, each the
        preamble's (base's) then those after it (u's own, from the first
        of the main file on: u lists some of the preamble's before them).
        What follows the preamble starts in the main file (the preamble
        ends at the first line of code)."""
        if self.split is None:
            self.split = self._preamble(own)
        entities, decls = self.split
        mine_entities, mine_decls = [], []
        for c in own:
            if c.kind.is_preprocessing():
                if mine_entities or u.in_main_file(c):
                    mine_entities.append(c)
            elif mine_decls or u.in_main_file(c):
                mine_decls.append(c)
        return entities + mine_entities + decls + mine_decls

    def _preamble(self, own):
        """(entities, declarations) of base that the preamble holds: the
        entities before the first of the main file that lies where the
        units' own start (the preprocessor records them in order), the
        declarations before the main file's first."""
        end = self.end
        entities, decls, after = [], [], False
        for c in self.base.top():
            if c.kind.is_preprocessing():
                after = after or (c.__dict__['in_main_file'] and c.extent.start.offset >= end)
                if not after:
                    entities.append(c)
            elif c.__dict__['in_main_file']:
                break
            else:
                decls.append(c)
        return entities, decls


def after_directives(text, i):
    """The offset of the first token from offset i of `text` on that is
    neither in a comment nor in a directive (i: at a line's start or
    blanks before a token)."""
    n = len(text)
    while i < n:
        c = text[i:i + 1]
        if c in b' \t\n\r\f\v':
            i += 1
        elif text.startswith(b'/*', i):
            j = text.find(b'*/', i + 2)
            i = n if j < 0 else j + 2
        elif text.startswith(b'//', i):
            j = text.find(b'\n', i)
            i = n if j < 0 else j
        elif c == b'#':
            # to the end of its line: a backslash continues it, and so
            # does a comment that spans lines
            while i < n and text[i:i + 1] != b'\n':
                if text.startswith(b'\\\n', i):
                    i += 2
                elif text.startswith(b'/*', i):
                    j = text.find(b'*/', i + 2)
                    i = n if j < 0 else j + 2
                else:
                    i += 1
        else:
            break
    return i


def _reparse(tu, unsaved):
    files = (ci._CXUnsavedFile * len(unsaved))()
    for i, (name, contents) in enumerate(unsaved):
        files[i].name = os.fsencode(name)
        files[i].contents = contents
        files[i].length = len(contents)
    opts = ci.conf.lib.clang_defaultReparseOptions(tu)
    return ci.conf.lib.clang_reparseTranslationUnit(tu, len(unsaved), files, opts) == 0
