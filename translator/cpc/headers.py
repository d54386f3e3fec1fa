"""Headers that define cps functions: translated with the file.

Invariant of the output: no cps function is defined outside the main file.
The passes rewrite only the main file's text, and the generated C would read
a header as plain C, so a header that defines a cps function (directly or
through the headers it includes) is inlined in place of its `#include`,
between `#line 1 "hdr.h"` and a `#line` back to the including line: its
definitions are then translated like the file's own, and messages and
debuggers still point into the header.  In the inlined text, `#pragma once`
is dropped and `#include "x.h"` naming a file beside the header becomes an
absolute path (the header's directory is no longer the includer's).  A header
that is included once only (include guard or `#pragma once`) is inlined at
its first inclusion and its other `#include`s in the file are dropped (they
were no-ops); any other header is inlined at each inclusion.  A header
included by another header that is not inlined gets its includer inlined
first.  What cannot be inlined (a header given with `-include`, a directive
written by a macro) is an error naming the header and the function.
"""
import ctypes
import os
import re

from . import frontend as fe
from . import libclang
from .clang_types import is_cps_function_type
from . import rewrite as rw

K = fe.K

PRAGMA_ONCE_RE = re.compile(rb'^[ \t]*#[ \t]*pragma[ \t]+once\b[^\n]*', re.M)
QUOTE_INCLUDE_RE = re.compile(rb'^([ \t]*#[ \t]*include[ \t]*)"([^"\n]+)"', re.M)


def _guarded(u, f):
    lib = libclang.lib()
    fn = lib.clang_isFileMultipleIncludeGuarded
    fn.argtypes = [fe.ci.TranslationUnit, fe.ci.File]
    fn.restype = ctypes.c_uint
    return bool(fn(u.tu, f))


def _once_only(u, f, text):
    return _guarded(u, f) or PRAGMA_ONCE_RE.search(text) is not None


def foreign_cps_definitions(u):
    out = []
    for c in u.top():
        if c.kind == K.FUNCTION_DECL and c.is_definition() and not u.in_main_file(c) \
                and c.location.file is not None and is_cps_function_type(c.type):
            out.append(c)
    return out


def check(u):
    """The invariant: every cps function is defined in the main file's text
    (one message per definition still in a header)."""
    return [u.diag(c, 'cps function `%s` is still defined in a header' % c.spelling)
            for c in foreign_cps_definitions(u)]


def header_text(path):
    with open(path, 'rb') as fh:
        text = fh.read()
    text = PRAGMA_ONCE_RE.sub(lambda m: b'/* ' + m.group(0).strip().replace(b'*/', b'* /') +
                              b' (inlined by cpcc) */', text)
    d = os.path.dirname(os.path.abspath(path))

    def absolute(m):
        name = m.group(2).decode('utf-8', 'surrogateescape')
        p = os.path.join(d, name)
        if os.path.isabs(name) or not os.path.isfile(p):
            return m.group(0)
        return m.group(1) + b'"' + rw.cstr(os.path.normpath(p)).encode(
            'utf-8', 'surrogateescape') + b'"'
    text = QUOTE_INCLUDE_RE.sub(absolute, text)
    if not text.endswith(b'\n'):
        text += b'\n'
    return text.decode('utf-8', 'surrogateescape')


def inline(u, inlined):
    """Edits inlining (one level of) the headers that define cps functions;
    [] when there are none.  `inlined`: real paths of the once-only headers
    already inlined (kept across rounds by the caller)."""
    defs = foreign_cps_definitions(u)
    if not defs and not inlined:
        return []
    # the inclusions Clang entered: file -> [(includer name or None, offset)]
    entered = {}
    files = {}
    for inc in u.tu.get_includes():
        name = inc.include.name
        files.setdefault(name, inc.include)
        src = inc.source.name if inc.source is not None else None
        entered.setdefault(name, []).append((src, inc.location.offset))
    directives = []       # main-file include directives: (a, b, included file name)
    for c in u.top():
        if c.kind == K.INCLUSION_DIRECTIVE and c.location.file is not None \
                and c.location.file.name == u.path:
            f = c.get_included_file()
            if f is not None:
                directives.append((c.extent.start.offset, c.extent.end.offset, f.name))
    real = {}

    def realpath(name):
        r = real.get(name)
        if r is None:
            r = real[name] = os.path.realpath(name)
        return r

    todo = []
    seen = set()
    why = {}
    for d in defs:
        name = d.location.file.name
        why.setdefault(name, d)
        if name not in seen:
            seen.add(name)
            todo.append(name)
    # a once-only header inlined earlier and entered again (natively, from a
    # header whose #pragma once it no longer shares): inline that includer too
    for name in entered:
        if realpath(name) in inlined and name not in seen:
            seen.add(name)
            todo.append(name)
    edits = []
    errs = []
    done_here = set()
    while todo:
        name = todo.pop(0)
        fobj = files.get(name)
        try:
            text = header_text(name)
        except OSError as e:
            errs.append(u.diag(why.get(name, u.tu.cursor), 'cannot read `%s`: %s' % (name, e)))
            continue
        once = fobj is not None and _once_only(u, fobj, text.encode('utf-8', 'surrogateescape'))
        ins = entered.get(name, [])
        for (src, off) in ins:
            if src is not None and src != u.path and src not in seen:
                seen.add(src)
                why.setdefault(src, why.get(name))
                todo.append(src)
            elif src is None:
                d = why.get(name)
                errs.append(u.diag(d if d is not None else u.tu.cursor,
                                   'cps function `%s` is defined in `%s`, which is included '
                                   'from the command line; cpcc translates the cps functions '
                                   'of headers that the .cpc file #includes: include it there '
                                   'or move the definition to a .cpc file' % (
                                       d.spelling if d is not None else '?', name)))
        mine = [x for x in directives if x[2] == name]
        if not mine:
            continue
        rp = realpath(name)
        first = True
        for (a, b, _) in mine:
            if once and (rp in inlined or not first):
                edits.append((a, b, '/* %s: inlined above by cpcc */' % u.text[a:b].decode(
                    'utf-8', 'surrogateescape').strip().replace('*/', '* /')))
                continue
            first = False
            if not _entered_from_main(entered.get(name, []), u.path, a, b):
                # a directive that did not enter the file (guard already defined)
                if once:
                    edits.append((a, b, '/* %s: inlined by cpcc */' % u.text[a:b].decode(
                        'utf-8', 'surrogateescape').strip().replace('*/', '* /')))
                    continue
            edits.append((a, b, '#line 1 "%s"\n%s%s' % (rw.cstr(name), text, rw.resync(u, b))))
            if once:
                done_here.add(rp)
    if errs:
        raise fe.Diags(errs)
    if defs and not edits:
        d = defs[0]
        raise fe.Diags([u.diag(d, 'cps function `%s` is defined in the header `%s`, whose '
                               '#include cpcc cannot inline (written by a macro?); move the '
                               'definition to a .cpc file' % (d.spelling, d.location.file.name))])
    inlined |= done_here
    return edits


def _entered_from_main(ins, path, a, b):
    return any(src == path and a <= off <= b for (src, off) in ins)
