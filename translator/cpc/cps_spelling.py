"""The spelling `__attribute__((cps))`, read as `cps` wherever it is written.

In front-end mode the runtime header defines `cps` as the type attribute
the translator reads (`__attribute__((btf_type_tag("cpc_cps")))`), which
cannot stand inside another attribute list.  So `__attribute__((cps))` is
masked to `cps` padded with blanks -- same length, same line breaks, so no
offset or line moves -- in the main file and in every user header it
includes: QEMU writes `#define coroutine_fn __attribute__((cps))` in a
header.  The headers are found by following the file's `#include`
directives, textually, through its own directory and the -iquote and -I
directories of the command line (system directories are not read: they do
not spell CPC).  A masked header reaches Clang as an unsaved file.

Invariant: `unsaved_headers(text, path, args)` lists (path, masked text)
for each header reachable that way whose text spells the attribute, and
nothing else.
"""
import contextlib
import os
import re

CPS_ATTR_RE = re.compile(rb'__attribute__\s*\(\(\s*(__)?cps(__)?\s*\)\)')
_INCLUDE_RE = re.compile(rb'^[ \t]*#[ \t]*(?:include|include_next|import)[ \t]*'
                         rb'(?:"([^"\n]+)"|<([^>\n]+)>)', re.M)


def mask(text):
    """`__attribute__((cps))` -> `cps` padded with spaces (offsets kept)."""
    def rep(m):
        s = m.group(0)
        nl = s.count(b'\n')
        return b'cps' + b' ' * (len(s) - 3 - nl) + b'\n' * nl
    return CPS_ATTR_RE.sub(rep, text)


def _search_dirs(args):
    """(quote dirs, angle dirs) of a command line, in order."""
    quote, angle = [], []
    it = iter(args)
    for a in it:
        for flag, dst in (('-iquote', quote), ('-I', angle)):
            if a == flag:
                v = next(it, None)
            elif a.startswith(flag) and len(a) > len(flag):
                v = a[len(flag):]
            else:
                continue
            if v is not None:
                dst.append(os.path.abspath(v))
            break
    return quote, angle


# path -> (mtime, [(name, is_quote)], spells the attribute)
_scanned = {}


def _scan(path):
    try:
        st = os.stat(path)
    except OSError:
        return [], False
    hit = _scanned.get(path)
    if hit is not None and hit[0] == st.st_mtime_ns:
        return hit[1], hit[2]
    try:
        with open(path, 'rb') as fh:
            text = fh.read()
    except OSError:
        return [], False
    incs = [(m.group(1) or m.group(2), m.group(1) is not None)
            for m in _INCLUDE_RE.finditer(text)]
    spells = CPS_ATTR_RE.search(text) is not None
    _scanned[path] = (st.st_mtime_ns, incs, spells)
    return incs, spells


def _resolve(name, is_quote, here, quote, angle):
    name = os.fsdecode(name)
    if os.path.isabs(name):
        return name if os.path.isfile(name) else None
    dirs = ([here] + quote if is_quote else []) + angle
    for d in dirs:
        p = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(p):
            return p
    return None


# Within one translation (`headers_fixed()`), the file system is taken as
# unchanged: every parse of it follows the same includes, so where a name
# resolves and what a header holds are looked up once ((name, is_quote,
# here, quote, angle) -> [(path, masked text)] of what it reaches).
_fixed = None


@contextlib.contextmanager
def headers_fixed():
    """Within the block, unsaved_headers() reads the file system once per
    include: a translation parses its file many times, and the headers
    the passes do not write do not change meanwhile (the headers pass
    writes what it inlines into the main file, never into a header)."""
    global _fixed
    outer = _fixed
    if outer is None:
        _fixed = {}
    try:
        yield
    finally:
        _fixed = outer


def unsaved_headers(text, path, args):
    """(path, masked text) of each header reachable from `text` (file
    `path`) through its includes that spells the attribute."""
    if _fixed is None:
        return _unsaved_headers(text, path, args)
    incs = tuple((m.group(1) or m.group(2), m.group(1) is not None)
                 for m in _INCLUDE_RE.finditer(text))
    key = (incs, os.path.dirname(os.path.abspath(path)), tuple(args), os.getcwd())
    hit = _fixed.get(key)
    if hit is None:
        hit = _fixed[key] = _unsaved_headers(text, path, args)
    return list(hit)


def _unsaved_headers(text, path, args):
    quote, angle = _search_dirs(list(args))
    out = []
    seen = set()
    todo = [(m.group(1) or m.group(2), m.group(1) is not None,
             os.path.dirname(os.path.abspath(path)))
            for m in _INCLUDE_RE.finditer(text)]
    # -include FILE is read first, as if included by the main file
    it = iter(args)
    for a in it:
        if a == '-include':
            f = next(it, None)
            if f is not None:
                todo.append((os.fsencode(f), True, os.getcwd()))
    while todo:
        name, is_quote, here = todo.pop()
        p = _resolve(name, is_quote, here, quote, angle)
        if p is None or p in seen:
            continue
        seen.add(p)
        incs, spells = _scan(p)
        if spells:
            with open(p, 'rb') as fh:
                out.append((p, mask(fh.read())))
        todo.extend((n, q, os.path.dirname(p)) for (n, q) in incs)
    return out
