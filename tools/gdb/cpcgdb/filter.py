"""The frame filter `cpc`: bt shows each invocation of a cps function as one
frame under its name with the user's arguments (RenamedFrame), and below
the innermost real frames the cps callers waiting in the continuation
(ContinuationFrame)."""

import re

import gdb

from .continuation import continuation_frames
from .cpsframe import chunk_params, _frame_k
from .names import GENERATED_RE, shown_name, TRAMPOLINES
from .stacks import _count_bodies, _groups
from .symbols import cname, user_name
from .tables import _resident
from .variables import _real_args


try:
    from gdb.FrameDecorator import FrameDecorator
except ImportError:          # gdb without frame filters
    FrameDecorator = object


class _Arg:
    def __init__(self, name, value):
        self.name, self.val = name, value

    def symbol(self):
        return self.name

    def value(self):
        return self.val


class RenamedFrame(FrameDecorator):
    """A generated function's frame, under its CPC name."""

    def function(self):
        name = cname(self.inferior_frame())
        if GENERATED_RE.match(name):
            return shown_name(user_name(name))
        return super().function()

    def frame_args(self):
        """The user's arguments (not cpc_k, cpc_resume; those dead at the
        point the thread resumed from are <optimized out>)."""
        f = self.inferior_frame()
        if chunk_params(f) is not None or GENERATED_RE.match(cname(f)):
            return [_Arg(n, v) for n, v in _real_args(f)]
        return super().frame_args()

    def frame_locals(self):
        """gdb's locals, and the variables that live in the frame (_resident)."""
        base = super().frame_locals()
        f = self.inferior_frame()
        if not GENERATED_RE.match(cname(f)):
            return base
        extra = _resident(f, False, [], chunk_params(f))
        if not extra:
            return base
        names = {n for n, _ in extra}
        kept = [x for x in base or []
                if getattr(x.symbol(), 'name', x.symbol()) not in names]
        return kept + [_Arg(n, v) for n, v in extra]


class ContinuationFrame(FrameDecorator):
    """A cps caller waiting in the continuation (no C frame of its own)."""

    def __init__(self, lf, base_frame):
        super().__init__(None)
        self.lf = lf
        self.base_frame = base_frame

    def inferior_frame(self):
        return self.base_frame

    def function(self):
        # indented under the numbered frames (gdb prints no level here)
        return '    ' + shown_name(self.lf.func) + (' [%s]' % self.lf.note if self.lf.note else '')

    def address(self):
        return None

    def filename(self):
        return self.lf.loc[0] if self.lf.loc else None

    def line(self):
        return self.lf.loc[1] if self.lf.loc else None

    def frame_args(self):
        return [_Arg(n, v) for n, v in self.lf.variables]

    def frame_locals(self):
        return []

    def elided(self):
        return None


class CpcFrameFilter:
    def __init__(self):
        self.name = 'cpc'
        self.priority = 100
        self.enabled = True
        gdb.frame_filters[self.name] = self

    def filter(self, it):
        return self._frames(it)

    def _frames(self, it):
        """gdb's frames, with the C frames of each cps invocation shown as
        one frame under the function's name (the stubs its body was called
        from, or is inlined into, are not frames of the program), and the
        cps callers waiting in the continuation after them."""
        pending = []                    # decorators of the cps frames met
        k = None
        for dec in it:
            f = dec.inferior_frame()
            name = cname(f)
            if GENERATED_RE.match(name) or (name.startswith('cpc_') and name.endswith('__cps')):
                pending.append(dec)
                if k is None:
                    k = _frame_k(f)
                continue
            if pending:
                yield from self._invocations(pending, k, name in TRAMPOLINES)
                pending, k = [], None
            yield dec
        if pending:
            yield from self._invocations(pending, k, False)

    @staticmethod
    def _invocations(decs, k, waiting):
        frames = [d.inferior_frame() for d in decs]
        by_frame = {id(f): d for f, d in zip(frames, decs)}
        groups = _groups(frames, k)
        shown = frames[0]
        for func, fs, holds in groups:
            if re.search(r'__(start|defer)$', cname(fs[0])) and fs[0] is not frames[0]:
                continue
            shown = fs[0]
            yield RenamedFrame(by_frame[id(fs[0])])
        if waiting and k is not None:
            try:
                extra = continuation_frames(k, skip=_count_bodies(groups))
            except gdb.error:
                extra = []
            # they borrow the last real frame printed: gdb numbers frames
            # by their gdb.Frame, so these print unnumbered
            for lf in extra:
                yield ContinuationFrame(lf, shown)
