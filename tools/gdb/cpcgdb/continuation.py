"""A CPC thread's continuation (struct cpc_continuation: length, c[]) read
as logical frames: each frame ends with its function pointer cpc_fn (a
resume function F__resume_N, a dispatch with N in cpc_point, a deferred
entry F__bounce, a spawn thunk S__start), with the variables its struct
saves; and the wait record above the top frame."""

import re

import gdb

from .names import DISPATCH_RE, RESUME_RE, shown_name
from .resume_lines import _resume_loc
from .runtime import _u32, _u64
from .spawns import _start_target
from .symbols import _fmt_value, _function_at, _loc_of_symbol, _type, user_name, _where


def _resume_point(slot):
    """(F, N, fn, name, symbol) for the frame whose function pointer cpc_fn
    is stored at address slot: fn, the function there, is a resume function
    of cps function F, which waits at its resume point N -- F__resume_N, or
    a dispatch F__dispatch[_K] with N in the frame's cpc_point, the word
    below cpc_fn; F and N are None for any other function."""
    fn = _u64(slot)
    name, sym = _function_at(fn)
    m = RESUME_RE.match(name)
    if m:
        return m.group(1), int(m.group(2)), fn, name, sym
    m = DISPATCH_RE.match(name)
    if m:
        return m.group(1), _u64(slot - 8), fn, name, sym
    return None, None, fn, name, sym


class LogicalFrame:
    """One frame of a CPC thread: a cps function, where it stands, its
    variables [(name, gdb.Value)]."""

    def __init__(self, func, loc, variables, note='', real=None):
        self.func = func
        self.loc = loc
        self.variables = variables
        self.note = note
        self.real = real            # the gdb.Frame of a running frame

    def describe(self):
        args = ', '.join('%s=%s' % (n, _fmt_value(v)) for n, v in self.variables)
        note = ' [%s]' % self.note if self.note else ''
        return '%s (%s)%s%s' % (shown_name(self.func), args, note, _where(self.loc))


def _struct_vars(addr, t):
    v = gdb.Value(addr).cast(t.pointer()).dereference()
    out = []
    for f in t.fields():
        if f.name in (None, 'cpc_fn', 'cpc_point'):
            continue                    # (the frame's function and resume point)
        fv = v[f.name]
        if f.name == 'cpc_env' and fv.type.code == gdb.TYPE_CODE_PTR and int(fv) != 0:
            env = fv.dereference()   # variables boxed in the heap environment
            out += [(g.name, env[g.name]) for g in env.type.fields() if g.name]
        else:
            out.append((f.name, fv))
    return out


def continuation_frames(k, skip=0):
    """The frames of continuation k (an address), top first, less the top
    `skip` ones (frames of functions running on the C stack)."""
    ctype = gdb.lookup_type('cpc_continuation')
    off_c = next(f.bitpos // 8 for f in ctype.fields() if f.name == 'c')
    length = _u32(k + 8)
    top = length
    frames = []
    ptr = 8
    while top >= ptr:
        func, n, fn, name, sym = _resume_point(k + off_c + top - ptr)
        names = None
        if n is not None:
            sname, note = func + '__frame', ''
            loc = _resume_loc(func, n, fn) or _loc_of_symbol(sym)
        elif name.endswith('__bounce'):
            func = name[:-len('__bounce')]
            sname, loc, note = func + '__args', _loc_of_symbol(sym), 'called, not entered yet'
        elif name.endswith('__start'):
            func, loc, names = _start_target(name, sym, fn)
            sname = name + '_args'
            note = 'not started yet'
        else:
            if sym is None and not re.match(r'[A-Za-z_]', name):
                break       # not a function: below the bottom frame, nothing to show
            frames.append(LogicalFrame(user_name(name), None, [], 'frame of unknown size: '
                                       'the rest of the continuation is not shown'))
            break
        t = _type(sname, sym)
        if t is None:
            frames.append(LogicalFrame(func, loc, [], 'no debug info for struct %s' % sname))
            break
        size = t.sizeof
        if size > top:
            # (a layout that does not fit: shown without its variables rather
            # than dropped, with what follows)
            if skip <= 0:
                frames.append(LogicalFrame(func, loc, [], 'its saved variables do not fit '
                                           'struct %s' % sname))
            break
        if skip > 0:
            skip -= 1
        else:
            vs = _struct_vars(k + off_c + top - size, t)
            if names:
                # spawn arguments a0, a1, ... are the callee's parameters
                vs = [(names[int(n[1:])] if re.match(r'a\d+$', n) and
                       int(n[1:]) < len(names) else n, v) for n, v in vs]
            frames.append(LogicalFrame(func, loc, vs, note))
        top -= size
    return frames


def _wait(k):
    """Address of k's wait record (just above its top frame)."""
    ctype = gdb.lookup_type('cpc_continuation')
    off_c = next(f.bitpos // 8 for f in ctype.fields() if f.name == 'c')
    return k + off_c + _u32(k + 8)


def _skip_size(k, n):
    """Bytes taken by the top n frames of continuation k."""
    ctype = gdb.lookup_type('cpc_continuation')
    off_c = next(f.bitpos // 8 for f in ctype.fields() if f.name == 'c')
    top = _u32(k + 8)
    size = 0
    for _ in range(n):
        func, _, _, _, sym = _resume_point(k + off_c + top - size - 8)
        t = _type(func + '__frame', sym) if func else None
        if t is None:
            break
        size += t.sizeof
    return size


def _returned_value(rtype, k):
    """The value a cps function of return type rtype returned to the
    thread of continuation k, now back in its caller: `return v;` left v
    just above the caller's frame, the top one (cpc_return_reserved)."""
    ctype = gdb.lookup_type('cpc_continuation')
    off_c = next(fl.bitpos // 8 for fl in ctype.fields() if fl.name == 'c')
    top = k + off_c + _u32(k + 8)
    return gdb.Value(top).cast(rtype.pointer()).dereference()
