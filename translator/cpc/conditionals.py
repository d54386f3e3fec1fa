"""Conditional inclusion: the front-end takes the branches the C compiler takes.

The generated C is compiled by the C compiler (gcc), not by the front-end
(Clang), and the two do not always take the same branch of an `#if`: they
predefine different macros (`__clang__`, `__GNUC__` 4 against 12, and
`__OPTIMIZE__` or the target macros of `-O` and `-m` options, which only
the C compiler is given), and they answer `__has_builtin`,
`__has_attribute` and `__has_include` each for itself.  A function whose
cps calls the translator rewrote in one branch, while the C compiler
compiles the other, does not build (or computes something else).

Invariant of the output: in the main file, each group of a conditional
directive (`#if`, `#ifdef`, `#ifndef`, `#elif`, `#else` and what follows up
to the next directive of its chain) is skipped by the front-end exactly
when the C compiler skips it, given the front-end's `__CPC_FRONTEND__`
(which a program may test to show the front-end something else on
purpose).

How: the C compiler preprocesses a copy of the file, up to the `#endif`
of its last chain, with a marker line after each such directive, which
shows the groups it takes.  A chain whose
groups the two take differently gets its directives replaced by constants
(`#if 1`, `#elif 0`, ...), on as many lines as they had, so the rest of
the file keeps its place.  Without a C compiler command (the translator
used as a library), or when the C compiler cannot preprocess the file
(it reports that itself when it compiles the output), nothing changes.
"""
import os
import re
import subprocess

from . import clex
from . import frontend as fe
from .libclang import presumed, skipped_ranges

_DIRECTIVE = re.compile(rb'#\s*([A-Za-z_]\w*)')
_OPENS = {b'if', b'ifdef', b'ifndef'}
_NEXT = {b'elif', b'elifdef', b'elifndef', b'else'}
_MARK = b'__cpc_group_%d__'
_MARK_RE = re.compile(rb'__cpc_group_(\d+)__')


class Group:
    """One group of a conditional chain: its directive's byte range and
    where the group's own text starts."""
    __slots__ = ('kind', 'start', 'end', 'body')

    def __init__(self, kind, start, end, body):
        self.kind, self.start, self.end, self.body = kind, start, end, body


_ANY_IF = re.compile(rb'#[ \t]*if')


def chains(text):
    """The conditional chains of `text`, each a list of Groups in order
    (its `#endif` left out), nested chains included."""
    return _chains(text)[0]


def _chains(text):
    """(chains(text), the offset after the last chain's `#endif`)."""
    out, open_chains, end = [], [], 0
    if not _ANY_IF.search(text):
        return out, end         # (most files: no need to look for directives)
    for t in clex.directives(text):
        m = _DIRECTIVE.match(t.text)
        name = m.group(1) if m else b''
        body = t.end + 1 if text[t.end:t.end + 1] == b'\n' else t.end
        if name in _OPENS:
            open_chains.append([Group(name, t.start, t.end, body)])
        elif name in _NEXT and open_chains:
            open_chains[-1].append(Group(name, t.start, t.end, body))
        elif name == b'endif' and open_chains:
            out.append(open_chains.pop())
            end = t.end
    return out, end


def taken_by_cc(text, groups, path, cc, upto=None):
    """The indexes (into `groups`) of the groups the C compiler command `cc`
    takes in `text`, or None when it cannot preprocess it.  `upto`: the
    offset after the last chain's `#endif`; what follows cannot change the
    groups taken before it, and is not preprocessed (the headers it
    includes are most of the C compiler's work)."""
    marked, last = [], 0
    for i, g in sorted(enumerate(groups), key=lambda ig: ig[1].body):
        marked += [text[last:g.body], _MARK % i + b'\n']
        last = g.body
    marked += [text[last:upto], b'\n']
    # in the front-end's mode: a program may test __CPC_FRONTEND__ on purpose
    cmd = list(cc) + ['-D__CPC_FRONTEND__', '-E', '-P', '-w', '-x', 'c',
                      '-iquote', os.path.dirname(os.path.abspath(path)), '-']
    try:
        r = subprocess.run(cmd, input=b''.join(marked), stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0:
        return None
    return set(int(m.group(1)) for m in _MARK_RE.finditer(r.stdout))


def taken_by_front_end(u, groups):
    # a skipped range runs from the directive that starts the skipping to
    # the one that ends it: a group taken whose first line is a false
    # nested `#if` has its body start where a range starts
    skipped = skipped_ranges(u)
    return set(i for i, g in enumerate(groups)
               if not any(a < g.body < b for (a, b) in skipped))


def differences(u, cc):
    """[(chain, taken)]: the chains of u's main file whose groups the C
    compiler takes otherwise than the front-end, with the set of the
    groups the C compiler takes."""
    cs, end = _chains(u.text)
    if not cs or cc is None:
        return []
    groups = [g for c in cs for g in c]
    by_cc = taken_by_cc(u.text, groups, u.path, cc, end)
    if by_cc is None:
        return []
    by_fe = taken_by_front_end(u, groups)
    out, i = [], 0
    for c in cs:
        idx = range(i, i + len(c))
        i += len(c)
        if any((j in by_cc) != (j in by_fe) for j in idx):
            out.append((c, set(k - idx[0] for k in idx if k in by_cc)))
    return out


def _constant(g, on, text):
    """The directive of group g replaced by a constant test (`on`: the
    group is taken), on as many lines as the directive had."""
    kind = b'if' if g.kind in _OPENS else b'elif'
    if g.kind == b'else':
        kind, cond = b'else', b''
    else:
        cond = b' 1' if on else b' 0'
    said = b' /* taken by the C compiler */' if on else b' /* skipped by the C compiler */'
    return (b'#' + kind + cond + said +
            b'\\\n' * text.count(b'\n', g.start, g.end)).decode('ascii')


def pin(u, cc):
    """Edits giving each chain that the front-end and the C compiler take
    differently the C compiler's branch as constants."""
    edits = []
    for c, taken in differences(u, cc):
        for j, g in enumerate(c):
            edits.append((g.start, g.end, _constant(g, j in taken, u.text)))
    return edits


def check(u, cc):
    out = []
    for c, _ in differences(u, cc):
        f, line, col = presumed(u.tu.get_location(u.path, c[0].start))
        out.append(fe.Diag('the front-end and the C compiler take different branches of '
                           'this conditional directive', f or u.path, line, col))
    return out
