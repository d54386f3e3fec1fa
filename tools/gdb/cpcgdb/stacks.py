"""Running threads: the C frames of cps code on an OS thread's stack,
grouped per invocation of a cps function (its body, and the stub that
called it or into which it is inlined), followed by the thread's
continuation less the frames those invocations hold."""

import re

import gdb

from .continuation import continuation_frames, LogicalFrame
from .cpsframe import _at_edge, _frame_k
from .names import GENERATED_RE, _kind_of, TRAMPOLINES
from .symbols import cname, user_name
from .variables import _real_args


def running_stack(newest):
    """(k, real cps frames [gdb.Frame], trampoline gdb.Frame) of the CPC
    thread running on the OS thread whose newest frame is given; None when
    it runs none."""
    frames = []
    k = None
    f = newest
    while f is not None:
        name = cname(f)
        if name in TRAMPOLINES:
            if not frames:
                return None
            return k, frames, f
        if GENERATED_RE.match(name) or (name.startswith('cpc_') and name.endswith('__cps')):
            frames.append(f)
            if k is None:
                k = _frame_k(f)
        f = f.older()
    return None


# the runtime's primitives: C functions that push no frame of their own
PRIMITIVE_ENTRIES = ('cpc_yield__cps', 'cpc_done__cps', 'cpc_wait__cps', 'cpc_wait_plain__cps',
                     'cpc_wait_plain_reserved__cps',
                     'cpc_sleep__cps',
                     'cpc_io_wait__cps', 'cpc_link__cps')


def _groups(frames, k=None):
    """The C frames of the cps code on an OS thread (newest first) in
    groups, one per invocation of a cps function F: its body F__body (gcc
    may describe one inlined call as two nested records), then the entry,
    bounce or resume stub that called it -- or, optimised, into which it
    is inlined, and which is then the group alone.  [(F, frames, whether
    the invocation holds a frame of the continuation)]: a spawn thunk
    S__start or a deferred entry F__defer holds none, nor does a
    primitive, nor the newest invocation stopped on its body's first or
    last line (its frame is pushed on the first, dropped on the last)."""
    groups = []
    for f in frames:
        name = cname(f)
        m = GENERATED_RE.match(name)
        kind = _kind_of(m) if m else 'cps'
        func = user_name(name)
        if groups and groups[-1][0] == func and (
                groups[-1][2] == {'body'} or
                kind == 'bounce' and groups[-1][2] <= {'body', 'cps'}):
            # the body's caller (or its twin record), or the deferred entry
            # that called the entry (which the trampoline alone calls)
            groups[-1][1].append(f)
            groups[-1][2].add(kind)
        else:
            groups.append((func, [f], {kind}))
    out = []
    for i, (func, fs, kinds) in enumerate(groups):
        holds = bool(kinds - {'start', 'defer'}) and cname(fs[0]) not in PRIMITIVE_ENTRIES \
            and _has_frame(func, fs[0])
        if holds and i == 0 and 'body' in kinds and _at_edge(fs[0], k):
            holds = False
        elif holds and i == 0 and kinds <= {'cps', 'bounce'} and _at_edge(fs[0]):
            holds = False                       # an inlined body at its dispatch
        out.append((func, fs, holds))
    return out


_frame_types = {}


def _has_frame(func, f):
    """Whether cps function func pushes a frame (struct func__frame: it has
    resume points; a function whose every cps call is a tail call has
    none), seen from gdb.Frame f."""
    key = (func, f.function().symtab.filename if f.function() is not None and
           f.function().symtab is not None else None)
    if key not in _frame_types:
        try:
            _frame_types[key] = gdb.lookup_type('struct %s__frame' % func, f.block()) \
                is not None
        except (gdb.error, RuntimeError):
            _frame_types[key] = False
    return _frame_types[key]


def _count_bodies(groups):
    """How many frames of the continuation belong to the cps functions
    running on the C stack, given their _groups."""
    return sum(1 for _, _, holds in groups if holds)


def running_logical_frames(k, frames):
    """Logical frames of a running thread: one per cps function running on
    the C stack (the newest C frame of its invocation: its body, or the
    stub the body is inlined into), then its continuation less their
    frames."""
    out = []
    groups = _groups(frames, k)
    for func, fs, holds in groups:
        f = fs[0]
        if re.search(r'__(start|defer)$', cname(f)) and f is not frames[0]:
            continue                     # scaffolding: its callee is shown
        sal = f.find_sal()
        loc = (sal.symtab.filename, sal.line) if sal.symtab is not None else None
        out.append(LogicalFrame(func, loc, _real_args(f), real=f))
    if k is not None:
        out += continuation_frames(k, skip=_count_bodies(groups))
    return out
