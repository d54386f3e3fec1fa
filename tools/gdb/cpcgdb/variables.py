"""`info locals` and `info args` in the user's terms, and the arguments of a
cps function's frame as bt shows them: the user's variables under their
names, without the translation's own, with those boxed in the heap
environment or resident in the frame, the dead ones <optimized out>."""

import re

import gdb

from .cpsframe import _at_edge, chunk_params
from .names import GENERATED_RE, _is_generated_name, RENAMED_RE
from .symbols import cname
from .tables import _dead_here, _resident


def _real_args(frame):
    """[(name, gdb.Value or text)] of the user's arguments of frame (less
    the generated cpc_k, cpc_resume; a chunk's parameters, declared as its
    locals)."""
    params = chunk_params(frame)
    if params is not None:
        dead = _dead_here(frame)
        out = []
        for n in params:
            try:
                sym = gdb.lookup_symbol(n, frame.block())[0]
                out.append((n, sym.type.optimized_out() if n in dead else frame.read_var(sym)))
            except (gdb.error, ValueError, RuntimeError, AttributeError):
                pass
        return _resident(frame, True, out, params)
    out = []
    try:
        block = frame.block()
    except RuntimeError:
        return out
    while block is not None and block.function is None:
        block = block.superblock
    if block is None:
        return out
    # an argument dead across the call the thread resumed from was not
    # restored: the resume function passed a zero in its place
    dead = _dead_here(frame) if GENERATED_RE.match(cname(frame)) else set()
    for s in block:
        if s.is_argument and not s.name.startswith('cpc_'):
            try:
                out.append((s.name, s.type.optimized_out() if s.name in dead
                            else frame.read_var(s)))
            except (gdb.error, ValueError):
                pass
    return _resident(frame, True, out) if GENERATED_RE.match(cname(frame)) else out


def _frame_variables(frame, args):
    """[(name, gdb.Value or error text)] of the arguments (args) or the
    locals of frame, innermost block first, as `info locals` lists them;
    in a cps function's frame, under the user's names and without the
    translation's own (cpc_k, cpc_f, cpc_r, cpc_env, temporaries), and
    with the variables boxed in the heap environment among the locals."""
    try:
        block = frame.block()
    except RuntimeError:
        return None
    cps = GENERATED_RE.match(cname(frame)) is not None
    dead = _dead_here(frame) if cps else set()
    params = set(chunk_params(frame) or [])
    out, env = [], None
    while block is not None and not block.is_global and not block.is_static:
        for sym in block:
            if not sym.is_variable and not sym.is_argument:
                continue
            # (a chunk of a body declares the function's parameters as
            # its outermost locals)
            is_arg = sym.is_argument or (block.function is not None and sym.name in params)
            if bool(is_arg) != args:
                continue
            name = sym.name
            if cps and name == 'cpc_env':
                env = sym
            if cps and _is_generated_name(name):
                continue
            m = RENAMED_RE.match(name) if cps else None
            if name in dead:
                v = '<optimized out>'       # not restored at the resume, not set since
            else:
                try:
                    v = frame.read_var(sym, block)
                except (gdb.error, ValueError, RuntimeError) as e:
                    v = '<error: %s>' % e
            out.append((m.group(1) if m else name, v))
        if block.function is not None:
            break
        block = block.superblock
    if cps and env is not None and not args and not _at_edge(frame):
        try:
            p = frame.read_var(env)
            if int(p) != 0:
                e = p.dereference()
                out += [(f.name, e[f.name]) for f in e.type.strip_typedefs().fields()
                        if f.name and not _is_generated_name(f.name)]
        except (gdb.error, gdb.MemoryError, RuntimeError, ValueError):
            pass
    return _resident(frame, args, out, params or None) if cps else out


class InfoCpcLocals(gdb.Command):
    """The local variables (info locals) or arguments (info args) of the
selected frame; in a cps function, the user's only, under their names, with
those kept in the heap environment.  Optional argument: a regular
expression that the names must match."""

    def __init__(self, what):
        self.args = what == 'args'
        super().__init__('info ' + what, gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        try:
            frame = gdb.selected_frame()
        except gdb.error:
            raise gdb.GdbError('No frame selected.')
        words = [w for w in gdb.string_to_argv(arg) if w != '-q']
        pattern = re.compile(words[-1]) if words else None
        vs = _frame_variables(frame, self.args)
        if vs is None:
            raise gdb.GdbError('No symbol table info available.')
        vs = [(n, v) for n, v in vs if pattern is None or pattern.search(n)]
        if not vs:
            gdb.write('No arguments.\n' if self.args else 'No locals.\n')
        for n, v in vs:
            try:
                text = v if isinstance(v, str) else v.format_string()
            except (gdb.error, gdb.MemoryError) as e:
                text = '<error: %s>' % e
            gdb.write('%s = %s\n' % (n, text))
