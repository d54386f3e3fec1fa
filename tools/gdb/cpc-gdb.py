"""gdb support for CPC programs: CPC threads and their continuations.

Loaded automatically for a program linked with the CPC runtime (its
.debug_gdb_scripts section names this file; gdb needs this directory in its
auto-load safe-path, unless it is installed under gdb's data directory's
auto-load/, which gdb trusts), or by hand with `source tools/gdb/cpc-gdb.py`.

Commands:
  info cpc-threads     every CPC thread: its state and its logical backtrace
  cpc-thread N         select CPC thread N and print its backtrace
  cpc bt [N]           the backtrace of the selected (or Nth) CPC thread
and a frame filter: `bt` inside a cps function shows, below the innermost
real frames, the cps callers waiting in the thread's continuation; the stop
at a user's breakpoint or for a signal, the frame where next/step/finish go
on, and `frame`, `up` and `down` (replaced here: they move over the frames
`bt` numbers) are printed as that filter shows them (the cps function, the
user's arguments), and `info breakpoints` (replaced) names a location in a
generated function after its cps function.

What this reads (docs/debugging.md says it at more length):
  - a continuation (struct cpc_continuation: length, c[]) is a stack of
    frames, each ending with its function pointer cpc_fn; translated code
    names them F__resume_N (struct F__frame: the variables of F saved at
    its call N) or, in a body with many resume points, F__dispatch or
    F__dispatch_K (its chunk K) with N in the frame's word below cpc_fn
    (cpc_point), F__bounce (struct F__args: a deferred entry of F) and
    S__start (struct S__start_args: a thread not started yet);
  - the line where F waits is the line of resume point N (the label
    F__resumed_N, or the table F__lines);
  - the schedulers: every struct cpc_sched on the runtime's list
    (world_list, cpc_sched.c, through `next`), the OS thread driving each
    (`driver`, a pthread_t); per scheduler its run queue (runnable; the
    rest of the current pass hangs off the running thread's cpc_next), its
    inbox, its timer heap (tmr_heap/tmr_n) and its fd wait lists
    (io_fds/io_nfds, linked through the wait record above the top frame);
    the default pool's queue (cpc_default_threadpool, struct cpc__pool),
    and OS threads' stacks (running threads);
  - with the debug runtime (--cpc-debug), the registries cpc__dbg_threads
    (thread numbers, spawn sites) and cpc__dbg_condvars (their waiters).
"""
import re
import struct
import time

import gdb

try:
    from gdb.FrameDecorator import FrameDecorator
except ImportError:          # gdb without frame filters
    FrameDecorator = object

# Functions of the runtime that run continuations: the logical stack of a
# running CPC thread ends where one of them is reached.
TRAMPOLINES = ('sched_trampoline', 'sched_loop', 'sched_loop_default', 'sched_loop_other',
               'cpc_scheduler_run', 'cpc_scheduler_run_once', 'cpc_main_loop',
               'cpc__sched_run', 'pool_worker', 'cpc_continuation_run')
# The generated functions' names (the translator's list of generated suffixes is
# translator/cpc/reserved.py: this standalone script keeps those of code it steps through)
RESUME_RE = re.compile(r'^(.+)__resume_(\d+)$')
# the one resume function of a chunk of a body with many resume points,
# which reads the resume point from the frame (docs/abi.md)
DISPATCH_RE = re.compile(r'^(.+)__dispatch(?:_\d+)?$')


class _GeneratedNames:
    """Matches the names of the C functions the translation generates for
    a cps function F, F__body (a body's C name, see cname), F__cps,
    F__defer, F__bounce, F__resume_N, F__dispatch[_K] and a spawn thunk's
    F__start: group 1 is F, group 2 the suffix.  Only names of the
    program's cps functions (those with a deferred entry F__bounce, which each has), the runtime's
    (cpc_...) and spawn thunks (F__spawn_N__start, a name the translator
    reserves) match, not a native function of the user's whose name ends
    the same way (`x__start`, `x__cps`)."""

    RE = re.compile(r'^(.+?)__(body|body_\d+|cps|defer|bounce|start|resume_\d+|dispatch|'
                    r'dispatch_\d+)$')

    def __init__(self):
        self.known = {}

    def match(self, name):
        m = self.RE.match(name or '')
        if m is None:
            return None
        func = m.group(1)
        if func.startswith('cpc_') or \
                m.group(2) == 'start' and re.search(r'__spawn_\d+$', func):
            return m
        if func not in self.known:
            found = False
            try:
                for sym in (gdb.lookup_static_symbol(func + '__bounce'),
                            gdb.lookup_global_symbol(func + '__bounce')):
                    if sym is not None and sym.addr_class == gdb.SYMBOL_LOC_BLOCK:
                        found = True
            except (gdb.error, RuntimeError):
                pass
            self.known[func] = found
        return m if self.known[func] else None


GENERATED_RE = _GeneratedNames()


def _kind_of(m):
    """The kind of generated function a GENERATED_RE match names: 'body'
    for every chunk of a body (F__body, and F__body_K, chunk K > 1 of a
    body cut into chunks: translator/cpc/emit/chunks.py), 'dispatch' for
    every chunk's dispatch function, else its suffix."""
    k = m.group(2)
    return 'body' if k.startswith('body') else 'dispatch' if k.startswith('dispatch') else k


def _chunk(m):
    """The chunk number of a body's GENERATED_RE match: 1 for F__body (the
    body, or its first chunk), K for F__body_K."""
    k = m.group(2)
    return int(k[len('body_'):]) if k.startswith('body_') else 1


def chunk_symbols(func, block=None):
    """The function symbols of the chunks K = 2, 3, ... of cps function
    func's body (F__body_K, static beside the body), [] for a body in one
    piece."""
    out = []
    while True:
        name = '%s__body_%d' % (func, len(out) + 2)
        sym = None
        try:
            if block is not None:
                sym = gdb.lookup_symbol(name, block)[0]
            sym = sym or gdb.lookup_static_symbol(name) or gdb.lookup_global_symbol(name)
        except (gdb.error, RuntimeError):
            sym = None
        if sym is None or sym.addr_class != gdb.SYMBOL_LOC_BLOCK:
            return out
        out.append(sym)
CPS_CALL_RE = re.compile(r'<([A-Za-z_][A-Za-z0-9_]*)__cps(?:\+\d+)?>')

CPC_IO_IN, CPC_IO_OUT = 1, 2
W_COND, W_TIMER, W_IO = 1, 2, 4
# struct cpc_wait (runtime/cpc_internal.h), packed:
#   link 0, cv 8, heap_index 16, fd 20, io_next 24, io_prev 32, io_dir 40
WAIT_LINK, WAIT_CV, WAIT_FD, WAIT_IO_NEXT, WAIT_IO_DIR = 0, 8, 20, 24, 40
ST_NEW, ST_RUNNING, ST_SUSPENDED, ST_PARKED = 1, 2, 3, 5


# ---- memory and symbols ----------------------------------------------------

def _mem(addr, n):
    return bytes(gdb.selected_inferior().read_memory(addr, n))


def _u64(addr):
    return struct.unpack('<Q', _mem(addr, 8))[0]


def _u32(addr):
    return struct.unpack('<I', _mem(addr, 4))[0]


def _i32(addr):
    return struct.unpack('<i', _mem(addr, 4))[0]


def _static(name, file_suffix):
    """The value of the runtime's static `name`, defined in file_suffix."""
    for s in gdb.lookup_static_symbols(name):
        if s.symtab is not None and s.symtab.filename.endswith(file_suffix):
            return s.value()
    return None


def _global(name):
    s = gdb.lookup_global_symbol(name)
    return s.value() if s is not None else None


def _function_at(addr):
    """(name, gdb.Symbol or None) of the function at addr."""
    b = _function_block(addr)
    if b is not None:
        return cname(b.function), b.function
    out = gdb.execute('info symbol 0x%x' % addr, to_string=True)
    m = re.match(r'(\S+)( \+ \d+)? in section', out)
    return (m.group(1) if m else '0x%x' % addr), None


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


def _function_block(addr):
    """The block of the (not inlined) function holding addr, or None."""
    try:
        b = gdb.block_for_pc(addr)
    except RuntimeError:
        return None
    found = None
    while b is not None and not b.is_static and not b.is_global:
        if b.function is not None:
            found = b
        b = b.superblock
    return found


def _owns(fb, pc):
    """Whether pc is code of fb's function.  A function that gcc splits
    into a hot and a cold part (f and f.cold) has one block spanning both,
    and whatever functions lie between them: its start and end alone do
    not say whose code an address is."""
    if not fb.start <= pc < fb.end:
        return False
    b = _function_block(pc)
    return b is not None and b.start == fb.start and b.function.name == fb.function.name


def _type(name, sym):
    """struct `name` as seen from the compilation unit of sym."""
    block = None
    if sym is not None:
        try:
            block = gdb.block_for_pc(int(sym.value().address))
        except (RuntimeError, gdb.error):
            block = None
    try:
        return gdb.lookup_type('struct ' + name, block) if block else \
            gdb.lookup_type('struct ' + name)
    except gdb.error:
        return None


def _where(sym_or_line):
    if sym_or_line is None:
        return ''
    fname, line = sym_or_line
    return ' at %s:%d' % (fname, line) if fname else ''


def _loc_of_symbol(sym):
    if sym is None or sym.symtab is None:
        return None
    return (sym.symtab.filename, sym.line)


def _loc_of_pc(pc):
    sal = gdb.find_pc_line(pc)
    if sal.symtab is None or sal.line == 0:
        return None
    return (sal.symtab.filename, sal.line)


def user_name(name):
    """The CPC name of a generated C function (F__body, F__cps -> F)."""
    m = GENERATED_RE.match(name or '')
    return m.group(1) if m else name


# The function holding cps function F's code is named F in the C (its debug
# information names it so, and gdb's own views show F); its symbol is
# F__body.  The extension reasons on the generated names: cname() gives a
# frame's or a function symbol's, F__body for such a body.
_is_body_cache = {}


def _is_body(sym):
    """Whether function symbol sym is the body of a cps function: named F,
    with F__cps, its entry, in the same compilation unit."""
    name = sym.name if sym is not None else None
    if not name or GENERATED_RE.match(name) or sym.symtab is None:
        return False
    key = (name, sym.symtab.filename)
    if key not in _is_body_cache:
        found = False
        try:
            e = gdb.lookup_static_symbol(name + '__cps') or \
                gdb.lookup_global_symbol(name + '__cps')
            for c in ([e] if e is not None else []) + \
                    list(gdb.lookup_static_symbols(name + '__cps')):
                if c.symtab is not None and c.symtab.filename == sym.symtab.filename:
                    found = True
                    break
        except (gdb.error, RuntimeError, AttributeError):
            pass
        _is_body_cache[key] = found
    return _is_body_cache[key]


def cname(frame_or_sym):
    """The generated C name of a gdb.Frame's function or of a function
    symbol: F__body for the body of cps function F, else its name."""
    if isinstance(frame_or_sym, gdb.Frame):
        name = frame_or_sym.name() or ''
        try:
            sym = frame_or_sym.function()
        except (RuntimeError, gdb.error):
            sym = None
        if sym is None or sym.name != name:
            # (an inlined frame: its block's function)
            try:
                b = frame_or_sym.block()
                while b is not None and b.function is None:
                    b = b.superblock
                sym = b.function if b is not None else sym
            except (RuntimeError, gdb.error):
                pass
    else:
        sym = frame_or_sym
        name = sym.name if sym is not None else ''
    return name + '__body' if sym is not None and sym.name == name and _is_body(sym) else name


def body_symbol(func, block=None):
    """The function symbol of the body of cps function func (named func in
    the C, or func__body), or None."""
    for name in (func, func + '__body'):
        found = []
        try:
            if block is not None:
                found.append(gdb.lookup_symbol(name, block)[0])
            found += [gdb.lookup_static_symbol(name), gdb.lookup_global_symbol(name)]
        except (gdb.error, RuntimeError):
            pass
        for sym in found:
            if sym is not None and sym.addr_class == gdb.SYMBOL_LOC_BLOCK and \
                    (name != func or _is_body(sym)):
                return sym
    return None


def _fmt_value(v):
    try:
        return v.format_string(summary=True) if v.type.code in (
            gdb.TYPE_CODE_STRUCT, gdb.TYPE_CODE_UNION, gdb.TYPE_CODE_ARRAY) else str(v)
    except gdb.error as e:
        return '<%s>' % e


# ---- logical frames ----------------------------------------------------------

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
        return '%s (%s)%s%s' % (self.func, args, note, _where(self.loc))


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


_inlined_params = {}


def _spawn_target(thunk_sym):
    """The cps function a spawn thunk S__start calls, read from its code: a
    call of T__cps, or (optimised) T's entry or body inlined into it."""
    try:
        b = gdb.block_for_pc(int(thunk_sym.value().address))
        arch = gdb.selected_inferior().architecture()
        insns = arch.disassemble(b.start, b.end - 1)
        # T inlined into the thunk first: the calls in its code are T's own
        # (a function ending with `cpc_sleep(s)` calls cpc_sleep__cps)
        for insn in insns:
            ib, outermost = gdb.block_for_pc(insn['addr']), None
            while ib is not None and ib.function is not None and ib.function != thunk_sym:
                m = GENERATED_RE.match(cname(ib.function))
                if m and _kind_of(m) in ('cps', 'body'):
                    outermost = (ib, m)
                ib = ib.superblock
            if outermost is not None:
                ib, m = outermost
                # (an inlined function's symbol has the line of the call: T's
                # own line is that of its entry's code, pinned there)
                loc = None
                for i2 in insns:
                    if ib.start <= i2['addr'] < ib.end:
                        sal = gdb.find_pc_line(i2['addr'])
                        if sal.symtab is not None and \
                                sal.symtab.filename == ib.function.symtab.filename:
                            loc = (sal.symtab.filename, sal.line)
                            break
                _inlined_params[m.group(1)] = (
                    [x.name for x in ib if x.is_argument and not x.name.startswith('cpc_')],
                    loc)
                return m.group(1)
        for insn in insns:
            m = CPS_CALL_RE.search(insn['asm'])
            if m:
                return m.group(1)
    except (RuntimeError, gdb.error, AttributeError):
        pass
    return None


_label_cache = {}


def _labels(func, near):
    """{label name: (file, line, address)} of the resume labels F__resumed_N
    of the body of cps function func (F, or its body's C name F__body),
    looked up from the code at `near`.  gcc puts them in the function's
    block or nested ones, which gdb's lookup does not search: the blocks
    are found through the line table."""
    func = user_name(func)
    near_block = gdb.block_for_pc(near)
    body = body_symbol(func, near_block)
    if body is None:
        return {}
    start = int(body.value().address)
    if start in _label_cache:
        return _label_cache[start]
    out = {}
    # (a body cut into chunks has the labels of its resume points in the
    # chunk that holds each)
    for chunk in [body] + chunk_symbols(func, near_block):
        fb = _function_block(int(chunk.value().address))
        if fb is None:
            continue
        blocks = {(fb.start, fb.end): fb}
        for e in chunk.symtab.linetable():
            if _owns(fb, e.pc):
                b = gdb.block_for_pc(e.pc)
                while b is not None and (b.start, b.end) not in blocks:
                    blocks[(b.start, b.end)] = b
                    b = b.superblock
        for b in blocks.values():
            for x in b:
                if x.addr_class == gdb.SYMBOL_LOC_LABEL and '__resumed_' in x.name:
                    out[x.name] = (x.symtab.filename, x.line, int(x.value()))
    _label_cache[start] = out
    return out


def _resume_loc(func, n, near):
    """(file, line) of the call at which F waits in its frame whose cpc_fn
    is F__resume_N (at `near`): the line of the label F__resumed_N, or
    (optimised code, where the label keeps no address once the body is
    inlined into its resume stub) entry N of the table F__lines the
    translator writes beside F."""
    try:
        lab = _labels(func, near).get('%s__resumed_%d' % (func, n))
        if lab:
            return lab[:2]
    except (RuntimeError, gdb.error, AttributeError):
        pass
    try:
        b = gdb.block_for_pc(near)
        sym = gdb.lookup_symbol(func + '__lines', b)[0] if b is not None else None
        if sym is not None and sym.symtab is not None:
            v = sym.value()
            if 0 < n <= v.type.range()[1]:
                return (sym.symtab.filename, int(v[n]))
    except (RuntimeError, gdb.error, AttributeError, ValueError):
        pass
    try:
        return _inlined_resume_loc(near)
    except (RuntimeError, gdb.error, AttributeError):
        return None


def _inlined_resume_loc(stub):
    """Optimised code keeps no address for the label once the body is
    inlined into its resume stub F__resume_N; the stub's code then goes
    straight to the label's code: its first line other than the
    function's own."""
    fb = _function_block(stub)
    if fb is None or fb.function.symtab is None:
        return None
    own = fb.function.line
    for e in sorted(fb.function.symtab.linetable(), key=lambda e: e.pc):
        if e.line not in (0, own) and _owns(fb, e.pc):
            return (fb.function.symtab.filename, e.line)
    return None


def _param_names(sym):
    """The CPC parameters of a generated entry point (less cpc_k)."""
    if sym is None:
        return None
    b = _function_block(int(sym.value().address))
    if b is None:
        return None
    return [x.name for x in b if x.is_argument and x.name != 'cpc_k']


def _start_target(name, sym, fn):
    """(function, (file, line), parameter names) of the cps function that
    the spawn thunk `name` (symbol sym, at address fn) starts."""
    target = _spawn_target(sym) if sym is not None else None
    if target is None:
        return name, None, None
    ts = gdb.lookup_symbol(target + '__cps', gdb.block_for_pc(fn))[0] \
        if gdb.block_for_pc(fn) is not None else None
    if ts is None:
        ts = gdb.lookup_global_symbol(target + '__cps') or \
            gdb.lookup_static_symbol(target + '__cps')
    loc = _loc_of_symbol(ts)
    try:
        names = _param_names(ts)
    except (RuntimeError, gdb.error, AttributeError):
        names = None
    inlined = _inlined_params.get(target, (None, None))
    names = names or inlined[0]
    for helper in ('__body', '__bounce', '__defer', '__resume_1'):
        if loc is not None:
            break
        # T's entry inlined into the thunk: one of its other
        # functions is declared on its line too
        hs = body_symbol(target) if helper == '__body' else \
            gdb.lookup_static_symbol(target + helper) or \
            gdb.lookup_global_symbol(target + helper)
        loc = _loc_of_symbol(hs)
    return target, loc or inlined[1], names


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


# ---- running threads: OS thread stacks ----------------------------------------

def _frame_k(frame):
    for nm in ('cpc_k', 'k'):
        try:
            v = frame.read_var(nm)
        except (ValueError, gdb.error, RuntimeError):
            continue
        try:
            if v.is_optimized_out or v.type.strip_typedefs().code != gdb.TYPE_CODE_PTR:
                continue
            return int(v)
        except gdb.error:
            continue
    return None


def chunk_params(frame):
    """The names of the parameters of the cps function whose body's chunk
    K > 1 runs in frame (F__body_K declares them as its outermost locals,
    restored from the frame where they are live), or None for any other
    frame."""
    m = GENERATED_RE.match(cname(frame))
    if m is None or _kind_of(m) != 'body' or _chunk(m) == 1:
        return None
    try:
        body = body_symbol(m.group(1), frame.block())
        fb = _function_block(int(body.value().address)) if body is not None else None
    except (gdb.error, RuntimeError):
        fb = None
    return [x.name for x in fb if x.is_argument and not _is_generated_name(x.name)] \
        if fb is not None else []


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


def _at_edge(f, k=None):
    """Whether frame f stands where its invocation holds no frame of
    continuation k: on its function's first line (the frame is pushed
    there), or on its last line (the closing brace: the body's epilogue,
    whose first instructions drop the frame; a `return` drops it on its
    own line and jumps to C's epilogue there) -- unless stopped on the
    epilogue's first instruction while the continuation's top frame is
    still one of f's function (F__resume_N)."""
    try:
        line = f.find_sal().line
        fb = _function_block(f.pc())
        ls = [e for e in f.find_sal().symtab.linetable() if _owns(fb, e.pc)]
        # (of the entries at the highest address, the last: the one gdb
        # reports for that address)
        last = max(enumerate(ls), key=lambda ie: (ie[1].pc, ie[0]))[1].line
        # (in a body cut into chunks, a chunk K > 1 starts with the frame
        # pushed, and each chunk but the last ends by calling the next one
        # with the frame still there)
        m = GENERATED_RE.match(cname(f))
        chunk = _chunk(m) if m and _kind_of(m) == 'body' else 1
        if line == fb.function.line and chunk == 1:
            return True
        if line != last or (m and _kind_of(m) == 'body' and
                            len(chunk_symbols(m.group(1), f.block())) >= chunk):
            return False
        # (the start of the run of rows of that line where f stands: gcc
        # may put a part of the function, f.cold, below it)
        start = f.pc()
        for e in sorted((e for e in ls if e.pc <= f.pc()), key=lambda e: e.pc, reverse=True):
            if e.line != last:
                break
            start = e.pc
        if k is None or f.pc() != start:
            return True
        return _resume_point(_wait(k) - 8)[0] != user_name(cname(f))
    except (gdb.error, RuntimeError, ValueError, AttributeError):
        return False


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


# ---- finding every thread -------------------------------------------------------

CATEGORIES = ['running', 'runnable', 'sleeping', 'condvar', 'fd', 'condvar',
              'detached', 'new']
# struct cpc__tmr_entry (cpc_timer.c): when, seq, k
TMR_ENTRY_SIZE = 24
# a thread queued in a pool keeps its home scheduler 8 bytes above its top
# frame (after cpc_link's result, cpc_pool.c); a plain wait on a shared
# condvar keeps it at the same place (struct cpc_wait: home)
HOME_OFFSET = 8


class CpcScheduler:
    """One cooperative scheduler (struct cpc_sched) and the OS thread
    driving it, if any."""

    def __init__(self, value):
        self.value = value
        self.addr = int(value.address) if value.address is not None else 0
        self.id = int(value['id'])
        self.default = self.id == 0
        self.driver = int(value['driver'])
        self.embedded = bool(int(value['embedded']))
        self.os_thread = None

    def header(self, nthreads):
        what = 'default, ' if self.default else ''
        if self.os_thread is not None:
            who = 'driven by OS thread %d (LWP %d)' % (self.os_thread.num,
                                                       self.os_thread.ptid[1])
        elif self.embedded:
            who = 'embedded, not running now'
        else:
            who = 'not running'
        return 'CPC scheduler %d (%s0x%x), %s: %d CPC thread%s' % (
            self.id, what, self.addr, who, nthreads, '' if nthreads == 1 else 's')


def _thread_id(th):
    """pthread_self() of OS thread th (what struct cpc_sched.driver holds)."""
    try:
        return int.from_bytes(th.handle(), 'little')
    except (gdb.error, AttributeError, TypeError):
        return None


def find_schedulers():
    """Every live scheduler, the default first, then by number: the list
    the runtime keeps under its world lock (world_list in cpc_sched.c)."""
    head = _static('world_list', 'cpc_sched.c')
    out = []
    if head is not None:
        s = int(head)
        t = head.type
        seen = set()
        while s and s not in seen and len(out) < 1 << 16:
            seen.add(s)
            v = gdb.Value(s).cast(t).dereference()
            out.append(CpcScheduler(v))
            s = int(v['next'])
    else:
        d = _global('cpc__sched_default')
        if d is not None:
            out.append(CpcScheduler(d))
    out.sort(key=lambda s: s.id)
    by_handle = {_thread_id(th): th for th in gdb.selected_inferior().threads()}
    for s in out:
        if s.driver:
            s.os_thread = by_handle.get(s.driver)
    return out


class CpcThread:
    def __init__(self, k, state, order, sched=None):
        self.k = k
        self.state = state
        self.order = order           # category rank, for listing
        self.sched = sched           # the CpcScheduler it belongs to
        self.id = None
        self.os_thread = None
        self.frames = None
        self.spawn = None


def _chain(k, limit=1 << 20):
    while k and limit:
        yield k
        k = _u64(k)                  # cpc_next is the first field
        limit -= 1


def _tls(name):
    """The value of the runtime's thread-local cpc__tls_`name` on the
    selected OS thread (cpc_tls_`name` in older runtimes)."""
    for full in ('cpc__tls_' + name, 'cpc_tls_' + name):
        try:
            return int(gdb.parse_and_eval(full))
        except (gdb.error, RuntimeError):
            continue
    return None


def _running_threads(add, scheds):
    """The CPC thread each OS thread runs (one per OS thread inside a
    trampoline), with the scheduler it belongs to: the one this OS thread
    drives, or for a pool worker its thread's home."""
    by_addr = {s.addr: s for s in scheds}
    by_driver = {s.driver: s for s in scheds if s.driver}
    selected = gdb.selected_thread()
    sel_frame = gdb.selected_frame() if selected is not None else None
    running = []
    try:
        for th in sorted(gdb.selected_inferior().threads(), key=lambda t: t.num):
            th.switch()
            r = running_stack(gdb.newest_frame())
            if r is None or r[0] is None:
                continue
            k, frames, tramp = r
            detached = tramp.name() in ('cpc__sched_run', 'pool_worker') or \
                any((f.name() or '') == 'pool_worker' for f in _older(tramp))
            if detached:
                sched = by_addr.get(_tls('home'))
            else:
                sched = by_driver.get(_thread_id(th)) or \
                    by_addr.get(_tls('sched'))
            t = add(k, 'detached, running on a pool worker' if detached else 'running',
                    0, sched)
            t.os_thread = th
            t.frames = running_logical_frames(k, frames)
            running.append(t)
    finally:
        if selected is not None:
            selected.switch()
            if sel_frame is not None:
                try:
                    sel_frame.select()
                except gdb.error:
                    pass
    for t in running:
        t.state += ' (thread %d, LWP %d)' % (t.os_thread.num, t.os_thread.ptid[1])
    return running


def _scheduler_threads(add, s, now):
    """The threads scheduler s holds: run queue, inbox, timer heap, fd
    wait lists."""
    v = s.value
    for k in _chain(int(v['runq']['head'])):
        add(k, 'runnable', 1, s)
    for k in _chain(int(v['inbox_head'])):
        add(k, 'runnable (in the inbox)', 1, s)

    # sleeping, and timed condvar waits
    heap, n = int(v['tmr_heap']), int(v['tmr_n'])
    if heap:
        entries = []
        for i in range(n):
            e = heap + i * TMR_ENTRY_SIZE
            entries.append((struct.unpack('<q', _mem(e, 8))[0], _u64(e + 8), _u64(e + 16)))
        for when, seq, k in sorted(entries):
            left = max(0, when - now) / 1e9
            if seq & 1:
                cv = _u64(_wait(k) + WAIT_CV)
                add(k, 'waiting on condvar 0x%x, timeout in %.3f s' % (cv, left), 3, s)
            else:
                add(k, 'sleeping, %.3f s left' % left, 2, s)

    # fds: struct cpc__io_fd starts with the head of its wait list
    fds, nfds = int(v['io_fds']), int(v['io_nfds'])
    if fds:
        fd_size = _io_fd_size()
        for fd in range(nfds):
            k = _u64(fds + fd * fd_size)
            while k:
                w = _wait(k)
                d = _u32(w + WAIT_IO_DIR)
                dirs = '/'.join(x for b, x in ((CPC_IO_IN, 'in'), (CPC_IO_OUT, 'out')) if d & b)
                state = 'waiting for fd %d (%s)' % (_i32(w + WAIT_FD), dirs)
                if _u64(w + WAIT_LINK) & W_COND:
                    state += ' or condvar 0x%x' % _u64(w + WAIT_CV)
                add(k, state, 4, s)
                k = _u64(w + WAIT_IO_NEXT)


def _io_fd_size():
    for sym in gdb.lookup_static_symbols('io_fd_get'):
        if sym.symtab is not None and sym.symtab.filename.endswith('cpc_io.c'):
            t = _type('cpc__io_fd', sym)
            if t is not None and t.sizeof:
                return t.sizeof
    return 32


def _condvar_scheduler(magic, k, scheds):
    """The scheduler of a waiter on a condvar whose magic is `magic`."""
    by_key = {int(s.value['cv_key']): s for s in scheds}
    if magic in by_key:
        return by_key[magic]
    home = _u64(_wait(k) + HOME_OFFSET)     # a shared condvar's waiter
    return next((s for s in scheds if s.addr == home), None)


# struct cpc_condvar (cpc_condvar.c, which asserts these offsets): q.head 0,
# q.tail 8, refcount 16, magic 24 (in a union with a uint64_t); malloc'ed,
# so 16-byte aligned.
# Magics (cpc_internal.h): a scheduler's cv_key, or CV_MAGIC_SHARED.
CV_TAIL, CV_REFCOUNT, CV_MAGIC = 8, 16, 24
CV_MAGIC_SHARED = 0x43565348
HEAP_CHUNK = 4 << 20


def _heap_regions():
    """[(start, end)] of the inferior's writable private memory that malloc
    may use: the heap and the anonymous mappings (malloc's arenas, and the
    stacks of threads made by pthread_create, which are anonymous too), not
    the main thread's [stack] nor files."""
    pid = gdb.selected_inferior().pid
    out = []
    try:
        with open('/proc/%d/maps' % pid) as f:
            for ln in f:
                parts = ln.split()
                if len(parts) < 5 or not parts[1].startswith('rw') or parts[1][3] != 'p':
                    continue
                path = parts[5] if len(parts) > 5 else ''
                if path not in ('', '[heap]'):
                    continue
                a, b = (int(x, 16) for x in parts[0].split('-'))
                out.append((a, b))
    except OSError:
        pass
    return out


def _heap_condvars(scheds):
    """[(address, magic, [waiters])] of the condvars with waiters found in
    the heap: a word holding a live condvar magic at offset CV_MAGIC (24) of a 16-byte
    aligned block, whose wait list (chained through cpc_next from q.head)
    ends where q.tail points.  Only a condvar passes that check."""
    keys = {int(s.value['cv_key']) for s in scheds} | {CV_MAGIC_SHARED}
    pats = [(struct.pack('<I', m), m) for m in keys]
    inf = gdb.selected_inferior()
    found = []
    for a, b in _heap_regions():
        at = a
        while at < b:
            n = min(HEAP_CHUNK, b - at)
            try:
                buf = bytes(inf.read_memory(at, n))
            except (gdb.MemoryError, gdb.error):
                at += n
                continue
            for pat, magic in pats:
                i = buf.find(pat)
                while i >= 0:
                    c = at + i - CV_MAGIC
                    if c % 16 == 0 and i >= CV_MAGIC:
                        ws = _condvar_waiters(buf, i - CV_MAGIC)
                        if ws:
                            found.append((c, magic, ws))
                    i = buf.find(pat, i + 1)
            at += n
    return found


def _condvar_waiters(buf, off):
    """The waiters of the condvar candidate at offset off of buf, or None."""
    head, tail = struct.unpack_from('<QQ', buf, off)
    refcount = struct.unpack_from('<i', buf, off + CV_REFCOUNT)[0]
    if head == 0 or tail == 0 or refcount < 0 or head % 8 or tail % 8:
        return None
    out, k = [], head
    try:
        while k and len(out) < (1 << 20):
            out.append(k)
            if k == tail:
                return out if _u64(k) == 0 else None
            k = _u64(k)
    except (gdb.MemoryError, gdb.error):
        return None
    return None


def find_threads():
    """(every CPC thread that can be found, in listing order; the
    schedulers)."""
    found = {}

    def add(k, state, order, sched=None):
        if k and k not in found:
            found[k] = CpcThread(k, state, order, sched)
        return found.get(k)

    ids = {}
    scheds = find_schedulers()
    by_addr = {s.addr: s for s in scheds}
    running = _running_threads(add, scheds)

    # runnable: the rest of a pass of cpc_scheduler_run_once hangs off
    # the thread it runs (the main loop's queue stays in runq)
    for t in running:
        if t.state.startswith('running'):
            for k in _chain(_u64(t.k)):
                add(k, 'runnable', 1, t.sched)
    now = time.monotonic_ns()
    for s in scheds:
        _scheduler_threads(add, s, now)

    # condvars (the debug runtime's list of them): waiters not found above
    cv = _global('cpc__dbg_condvars')
    if cv is not None:
        c = int(cv)
        cvtype = gdb.lookup_type('cpc_condvar').strip_typedefs().pointer()
        while c:
            cvv = gdb.Value(c).cast(cvtype)
            magic = int(cvv['magic'])
            for k in _chain(int(cvv['q']['head'])):
                add(k, 'waiting on condvar 0x%x' % c, 5, _condvar_scheduler(magic, k, scheds))
            c = int(cvv['dbg_next'])

    else:
        # the release runtime keeps no list of condvars: they are found in
        # the heap (_heap_condvars), which costs the program nothing
        for c, magic, waiters in _heap_condvars(scheds):
            for k in waiters:
                add(k, 'waiting on condvar 0x%x' % c, 5, _condvar_scheduler(magic, k, scheds))

    # the default pool's queue (each queued thread keeps its home)
    pool = _global('cpc_default_threadpool')
    if pool is not None and int(pool) != 0:
        ptype = None
        for sym in gdb.lookup_static_symbols('pool_worker'):
            if sym.symtab is not None and sym.symtab.filename.endswith('cpc_pool.c'):
                ptype = _type('cpc__pool', sym)
        if ptype is not None:
            p = gdb.Value(int(pool)).cast(ptype.pointer())
            for k in _chain(int(p['head'])):
                add(k, 'detached, queued in pool 0x%x' % int(pool), 6,
                    by_addr.get(_u64(_wait(k) + HOME_OFFSET)))

    # the debug runtime's registry: everything else, and thread numbers
    reg = _global('cpc__dbg_threads')
    if reg is not None:
        k = int(reg)
        while k:
            kv = gdb.Value(k).cast(gdb.lookup_type('cpc_continuation').pointer())
            ids[k] = int(kv['cpc_dbg_id'])
            st = int(kv['cpc_state'])
            if k not in found:
                if st == ST_NEW:
                    add(k, 'created, not spawned', 7)
                elif st == ST_PARKED:
                    add(k, 'parked (held by the program: cpc_park)', 7)
                elif st == ST_RUNNING:
                    add(k, 'running (not on any OS thread\'s cps frames)', 0)
                else:
                    add(k, 'suspended (queued in a pool)', 6)
            spawn = int(kv['cpc_dbg_spawn'])
            if spawn:
                found[k].spawn = _loc_of_pc(spawn - 1)
            k = int(kv['cpc_dbg_next'])
        key = lambda t: ids.get(t.k, 1 << 62)
    else:
        key = lambda t: t.order
    rank = {s.addr: i for i, s in enumerate(scheds)}
    threads = sorted(found.values(), key=lambda t: (
        rank.get(t.sched.addr, len(scheds)) if t.sched is not None else len(scheds), key(t)))
    for i, t in enumerate(threads, 1):
        t.id = ids.get(t.k) if reg is not None else i
    for t in threads:
        if t.frames is None:
            try:
                t.frames = continuation_frames(t.k)
                if t.state.startswith(('sleeping', 'waiting')):
                    t.frames = _tail_called(t.k, t.frames)
            except gdb.error as e:
                t.frames = [LogicalFrame('<unreadable: %s>' % e, None, [])]
    return threads, scheds

def _cps_calls(fb, rows=None):
    """[(callee, address)]: the calls and jumps to a cps function's entry
    X__cps in the code of function block fb (in its rows `rows`, [(start,
    end)], when given; fb None: any function's)."""
    arch = gdb.selected_inferior().architecture()
    out = []
    for a, b in rows or [(fb.start, fb.end)]:
        if b <= a:
            continue
        for insn in arch.disassemble(a, b - 1):
            if fb is not None and not _owns(fb, insn['addr']):
                continue
            op = insn['asm'].split()[0] if insn['asm'].split() else ''
            m = CPS_CALL_RE.search(insn['asm'])
            if m and op.startswith(('call', 'jmp')):
                out.append((m.group(1), insn['addr']))
    return out


_site_callees = {}


def _site_callee(func, n, near):
    key = (func, n, _function_at(near)[0])
    if key not in _site_callees:
        _site_callees[key] = _site_callee_uncached(func, n, near)
    return _site_callees[key]


def _site_callee_uncached(func, n, near):
    """The cps function that F's call at resume point N calls: the last
    call of an entry X__cps in the code of the call's line before the
    resume label F__resumed_N (unoptimised code, where the label has an
    address), or None."""
    lab = _labels(func, near).get('%s__resumed_%d' % (func, n))
    body = body_symbol(func, gdb.block_for_pc(near))
    if not lab or body is None:
        return _inlined_site_callee(func, n, near)
    fb = _function_block(lab[2])         # (the body, or the chunk holding the label)
    rows = sorted(e.pc for e in body.symtab.linetable() if _owns(fb, e.pc) and e.line == lab[1])
    start = [pc for pc in rows if pc < lab[2]]
    calls = _cps_calls(fb, [(start[0], lab[2])]) if start else []
    return calls[-1][0] if calls else None


def _inlined_site_callee(func, n, near):
    """_site_callee in optimised code, where F's body is inlined into its
    entry and its resume functions: the one cps function called on the
    call's line (F__lines) in F's code, or None when there are several."""
    loc = _resume_loc(func, n, near)
    st = gdb.find_pc_line(near).symtab
    if loc is None or st is None:
        return None
    rows = sorted(st.linetable(), key=lambda e: e.pc)
    ranges, callees = [], set()
    for e, nxt in zip(rows, rows[1:]):
        fb = _function_block(e.pc)
        if fb is None or user_name(cname(fb.function)) != func:
            continue
        if e.line == loc[1] and nxt.pc > e.pc:
            ranges.append((e.pc, nxt.pc))
        # a callee inlined there (its entry or body: an inlined function's
        # symbol has the line of its call)
        b = gdb.block_for_pc(e.pc)
        while b is not None and b.start != fb.start:
            if b.function is not None and b.function.line == loc[1]:
                g = user_name(cname(b.function))
                if g != func:
                    callees.add(g)
            b = b.superblock
    callees |= {x for x, _ in _cps_calls(None, ranges)} if ranges else set()
    return callees.pop() if len(callees) == 1 else None


def _tail_called(k, frames):
    """The frames of a thread waiting in a primitive (asleep, on a condvar
    or an fd), with, above the top one, the cps function its call there
    called when that function keeps no frame of its own: it ended with the
    call the thread waits in (a tail call drops the frame before the
    call), at the line of that call when it makes one such call.  Read from
    the code at the top frame's resume point (unoptimised code)."""
    try:
        if not frames or frames[0].note:
            return frames
        func, n, fn = _resume_point(_wait(k) - 8)[:3]
        if n is None:
            return frames
        callee = _site_callee(func, n, fn)
        if callee is None or callee + '__cps' in PRIMITIVE_ENTRIES or \
                callee.startswith('cpc_') and body_symbol(callee) is None:
            return frames
        # (its body, or optimised its entry, into which the body is inlined)
        code = body_symbol(callee, gdb.block_for_pc(fn)) or \
            gdb.lookup_static_symbol(callee + '__cps') or \
            gdb.lookup_global_symbol(callee + '__cps')
        if code is None:
            return frames
        fb = _function_block(int(code.value().address))
        lines = {gdb.find_pc_line(a).line for _, a in _cps_calls(fb)}
        loc = (code.symtab.filename, lines.pop()) if len(lines) == 1 else None
        return [LogicalFrame(callee, loc, [], 'no frame: it ended with the call it waits in')] + \
            frames
    except (gdb.error, RuntimeError, ValueError, AttributeError, IndexError):
        return frames


def _older(f):
    f = f.older()
    while f is not None:
        yield f
        f = f.older()


def _wait(k):
    """Address of k's wait record (just above its top frame)."""
    ctype = gdb.lookup_type('cpc_continuation')
    off_c = next(f.bitpos // 8 for f in ctype.fields() if f.name == 'c')
    return k + off_c + _u32(k + 8)


# ---- commands ---------------------------------------------------------------------

_selected_id = None


def _print_thread(t, selected):
    mark = '*' if selected else ' '
    spawn = ', spawned%s' % _where(t.spawn) if t.spawn else ''
    gdb.write('%s CPC thread %d (0x%x): %s%s\n' % (mark, t.id, t.k, t.state, spawn))
    for i, f in enumerate(t.frames):
        gdb.write('    #%-2d %s\n' % (i, f.describe()))
    if not t.frames:
        # an empty continuation: the call the thread waits in was the last
        # action of its function, which dropped its frame before it (a tail
        # call keeps no frame), and so on down to the thread's start
        gdb.write('    (no frame: the function it waits in ended with the call, which keeps '
                  'none)\n')


class InfoCpcThreads(gdb.Command):
    """Every CPC thread, its state and its logical backtrace (the cps
functions in its continuation, where each waits, its saved variables)."""

    def __init__(self):
        super().__init__('info cpc-threads', gdb.COMMAND_STATUS)

    def invoke(self, arg, from_tty):
        _require_process()
        threads, scheds = find_threads()
        groups = [(s, [t for t in threads if t.sched is s]) for s in scheds]
        lost = [t for t in threads if t.sched is None]
        for s, ts in groups:
            gdb.write(s.header(len(ts)) + '\n')
            for t in ts:
                _print_thread(t, t.id == _selected_id)
        if lost:
            gdb.write('CPC threads of no scheduler found: %d\n' % len(lost))
            for t in lost:
                _print_thread(t, t.id == _selected_id)
        counts = {}
        for t in threads:
            key = 'detached' if t.state.startswith('detached') else CATEGORIES[t.order]
            counts[key] = counts.get(key, 0) + 1
        order = ['running', 'runnable', 'sleeping', 'condvar', 'fd', 'detached', 'new']
        gdb.write('%d CPC threads: %s\n' % (len(threads), ', '.join(
            '%d %s' % (counts[k], k) for k in order if k in counts)))
        if not _global('cpc__dbg_threads'):
            gdb.write('(release runtime: a thread held by the program with cpc_park is '
                      'listed with the debug runtime only, cpcc --cpc-debug)\n')


# ---- locals and arguments of a cps function ----------------------------------------

RENAMED_RE = re.compile(r'^(.+)__\d+$')      # a local renamed apart (rename.py)


def _is_generated_name(name):
    return name.startswith(('cpc_', '__cpc'))


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


def _resident(frame, args, out, params=None):
    """`out` ([(name, value)] of _frame_variables or _real_args for frame,
    a cps function's) with the variables that live in its frame, read and
    written there in place (cpcc -O1 and above: the table F__resident),
    read from the frame: a parameter's C value is the one it was entered
    with, and a local has no C variable.  Those the resume point did not
    restore are <optimized out>, as lifted ones are (_dead_here).  `params`:
    the parameters of a chunk K > 1 (chunk_params: declared as its locals)."""
    m = GENERATED_RE.match(cname(frame))
    if m is None:
        return out
    try:
        table = gdb.lookup_symbol(m.group(1) + '__resident', frame.block())[0]
        if table is None:
            return out
        names = table.value().string().split()
        fr = frame.read_var('cpc_f')
        if fr.is_optimized_out or int(fr) == 0 or _at_edge(frame):
            return out
        fr = fr.dereference()
        if params is None:
            block = frame.block()
            while block is not None and block.function is None:
                block = block.superblock
            params = {x.name for x in block if x.is_argument} if block is not None else ()
        params = set(params)
    except (gdb.error, gdb.MemoryError, RuntimeError, ValueError, AttributeError):
        return out
    dead = _dead_here(frame)
    vals = {}
    for n in names:
        if (n in params) != args:
            continue
        try:
            vals[n] = fr[n].type.optimized_out() if n in dead else fr[n]
        except (gdb.error, gdb.MemoryError, RuntimeError):
            continue
    user = {}
    for n in vals:
        um = RENAMED_RE.match(n)
        user[um.group(1) if um else n] = vals[n]
    seen = set()
    res = []
    for n, v in out:
        if n in user:
            v = user[n]
            seen.add(n)
        res.append((n, v))
    return res + [(n, v) for n, v in user.items() if n not in seen]


_DEAD_TABLES = {}      # address of a table F__dead: (its items, its entries read so far)


def _dead_entry(table, names, n):
    """The items `NAME@LINES` of resume point n's entry of a table of dead
    variables (translator/cpc/emit/dead_table.py): an entry is the set of
    numbers of F__dead_vars' items, or its changes from entry n-1 (`+K
    -K`, `=`), so it is read from the last whole set before it.  The texts
    are read from the program once per table (kept until its symbols
    change)."""
    key = int(table.address)
    if key not in _DEAD_TABLES:
        _DEAD_TABLES[key] = (names.string().split(), [''])
    items, texts = _DEAD_TABLES[key]
    while len(texts) <= n:
        texts.append(table[len(texts)].string())
    start = n
    while texts[start] == '=' or texts[start][:1] in ('+', '-'):
        start -= 1
    cur = {int(tok) for tok in texts[start].split()}
    for text in texts[start + 1:n + 1]:
        for tok in text.split():
            if tok[0] == '+':
                cur.add(int(tok[1:]))
            elif tok[0] == '-':
                cur.discard(int(tok[1:]))
    return [items[i] for i in sorted(cur)]


def _forget_dead_tables(event):
    _DEAD_TABLES.clear()


def _dead_here(frame):
    """The variables of a cps function's frame that hold no value: the
    thread resumed at resume point N, which did not restore them (they are
    dead across the call), and has passed no line that sets them since
    (the translator's tables F__dead and F__lines).  Between the resume
    line and the current one when the current one follows it; when it
    comes before (a loop went round), a variable set on a line after the
    resume or before the current line holds its value."""
    m = GENERATED_RE.match(cname(frame))
    func, kind = m.group(1), m.group(2)
    n = None
    if kind.startswith('resume_'):
        n = int(kind[len('resume_'):])
    else:
        try:
            v = frame.read_var('cpc_resume')
            if not v.is_optimized_out:
                n = int(v)
        except (gdb.error, ValueError, RuntimeError):
            return set()
    if not n:
        return set()
    try:
        b = frame.block()
        table = gdb.lookup_symbol(func + '__dead', b)[0]
        names = gdb.lookup_symbol(func + '__dead_vars', b)[0]
        lines = gdb.lookup_symbol(func + '__lines', b)[0]
        if table is None or names is None or lines is None:
            return set()
        entry = _dead_entry(table.value(), names.value(), n)
        resumed = int(lines.value()[n])
        here = frame.find_sal().line
    except (gdb.error, gdb.MemoryError, RuntimeError, ValueError, IndexError):
        return set()
    out = set()
    for item in entry:
        name, _, sets = item.partition('@')
        at = [int(x) for x in sets.split(',') if x]
        if here >= resumed:
            live = any(resumed <= a < here for a in at)
        else:
            live = any(a >= resumed or a < here for a in at)
        if not live:
            out.add(name)
    return out


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


def _require_process():
    if not gdb.selected_inferior().pid:
        raise gdb.GdbError('The program is not being run.')


def _thread_by_id(n):
    _require_process()
    threads, _ = find_threads()
    for t in threads:
        if t.id == n:
            return t
    raise gdb.GdbError('no CPC thread %d (see info cpc-threads)' % n)


class CpcThreadCmd(gdb.Command):
    """cpc-thread N: select CPC thread N (and the OS thread running it, if
any) and print its backtrace."""

    def __init__(self):
        super().__init__('cpc-thread', gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        global _selected_id
        try:
            n = int(arg.strip())
        except ValueError:
            raise gdb.GdbError('usage: cpc-thread N')
        t = _thread_by_id(n)
        _selected_id = n
        if t.os_thread is not None:
            t.os_thread.switch()
        _print_thread(t, True)


class CpcPrefix(gdb.Command):
    """CPC commands: cpc bt [N]."""

    def __init__(self):
        super().__init__('cpc', gdb.COMMAND_STACK, prefix=True)


class CpcBt(gdb.Command):
    """cpc bt [N]: the logical backtrace of CPC thread N, or of the one
selected with cpc-thread, or of the one running on the current OS thread."""

    def __init__(self):
        super().__init__('cpc bt', gdb.COMMAND_STACK)

    def invoke(self, arg, from_tty):
        if arg.strip():
            t = _thread_by_id(int(arg.strip()))
        elif _selected_id is not None:
            t = _thread_by_id(_selected_id)
        else:
            r = running_stack(gdb.newest_frame())
            if r is None:
                raise gdb.GdbError('no CPC thread runs here; select one with cpc-thread N')
            k, frames, _ = r
            for i, f in enumerate(running_logical_frames(k, frames)):
                gdb.write('#%-2d %s\n' % (i, f.describe()))
            return
        _print_thread(t, True)


# ---- bt: the logical callers below the trampoline ------------------------------------

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
            return user_name(name)
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
        return '    ' + self.lf.func + (' [%s]' % self.lf.note if self.lf.note else '')

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


# ---- frame, up and down in the user's terms -------------------------------------------
#
# gdb prints `frame`, `up` and `down` with its own frame printer, which
# frame filters do not reach: it lists a body's C arguments cpc_k and
# cpc_resume, and `up` selects the generated stubs (a resume function, an
# entry) between a body and its C caller.  The extension replaces the three
# commands (outside MI): they move over the frames `bt` numbers (the frame
# filter's: one per invocation of a cps function, the stubs it is called
# from or inlined into being part of it), select with gdb's own commands
# (`select-frame` and the subcommands of gdb's `frame`, kept under aliases
# made before the replacement: their argument syntax and errors stay
# gdb's), and print a cps function's frame as `bt` shows it.  `up` stops at
# the outermost cps frame on the stack when cps callers wait above it in the
# continuation (they have no frame to select).  `frame apply` (which gdb's
# faas and tfaas run by name) goes over the same frames with bt's lines, and
# `info frame` describes the C frame of a body in the same terms.

_FRAME_SUBCOMMANDS = ('apply', 'level', 'function', 'address', 'pc', 'view')
_FRAME_KEPT = ('view',)                  # gdb's, as gdb prints it


def _gdb_errors(invoke):
    """A command's invoke whose gdb errors are reported as gdb reports its
    own commands' (the message alone, no Python traceback line)."""
    def wrapped(self, arg, from_tty):
        try:
            return invoke(self, arg, from_tty)
        except gdb.GdbError:
            raise
        except gdb.error as e:
            raise gdb.GdbError(str(e))
    return wrapped


def _selected_frame():
    try:
        return gdb.selected_frame()
    except gdb.error:
        raise gdb.GdbError('No stack.')


def _raw_frames():
    f = gdb.newest_frame()
    while f is not None:
        yield FrameDecorator(f)
        f = f.older()


def _shown_frames(waiting=False):
    """The decorators of the frames `bt` numbers, newest first (waiting:
    and those it shows unnumbered, the cps callers waiting in the
    continuation, ContinuationFrame)."""
    ff = gdb.frame_filters.get('cpc')
    if ff is None or not ff.enabled:
        return list(_raw_frames())
    return [d for d in ff.filter(_raw_frames())
            if waiting or not isinstance(d, ContinuationFrame)]


def _waiting_above(frames, i):
    """(j, names): the last frame j >= i of frames (all `bt` shows) before
    the cps callers waiting in the continuation, and their names; (None, [])
    when none wait above frame i."""
    last = i
    for j in range(i + 1, len(frames)):
        if isinstance(frames[j], ContinuationFrame):
            names = []
            for d in frames[j:]:
                if not isinstance(d, ContinuationFrame):
                    break
                names.append(d.lf.func)
            return last, names
        last = j
    return None, []


def _shown_frame_of(frames, f):
    """The shown frame whose invocation frame f is part of (the newest
    shown frame not newer than f)."""
    best = frames[0] if frames else None
    for d in frames:
        if d.inferior_frame().level() > f.level():
            break
        best = d
    return best


def _print_shown_frame(dec):
    """Select the frame of decorator dec and print it as gdb's `frame`
    does, a cps function's under its name with the user's arguments."""
    f = dec.inferior_frame()
    # (selected first: gdb's `frame` prints a frame it newly selects
    # through its observers, to the terminal, past to_string)
    f.select()
    out = gdb.execute('cpc-builtin-frame-level %d' % f.level(), to_string=True)
    if '\n' in out:
        first, rest = out.split('\n', 1)
        head = re.match(r'#\d+\s+(0x[0-9a-f]+ in )?', first)
        where = _user_location(dec)
        if head and where:
            out = '%s%s\n%s' % (head.group(0), where, rest)
    gdb.write(out)


def _user_location(dec):
    """`F (ARGS) at FILE:LINE` for the frame of decorator dec of a cps
    function, as `bt` shows it; None for any other frame."""
    if not isinstance(dec, RenamedFrame):
        return None
    args = dec.frame_args() or []
    sal = dec.inferior_frame().find_sal()
    if sal.symtab is None or not all(isinstance(a, _Arg) for a in args):
        return None
    return '%s (%s) at %s:%d' % (
        dec.function(), ', '.join('%s=%s' % (a.symbol(), _fmt_value(a.value())) for a in args),
        sal.symtab.filename, sal.line)


def _print_selected_frame():
    f = _selected_frame()
    _print_shown_frame(_shown_frame_of(_shown_frames(), f))


class CpcFrame(gdb.Command):
    """Select and print a stack frame, a cps function's in the user's terms.
Usage: frame [LEVEL | ADDRESS]
       frame level|function|address|pc|view ...  (see `help select-frame`)
       frame apply ...  (gdb's)
With no argument, print the selected frame.  A generated function's frame
(a resume function, an entry) is part of the invocation of the cps function
it runs: its cps function's frame is selected."""

    def __init__(self):
        super().__init__('frame', gdb.COMMAND_STACK, gdb.COMPLETE_NONE, True)

    @_gdb_errors
    def invoke(self, arg, from_tty):
        if arg.strip():
            gdb.execute('select-frame ' + arg, to_string=True)
        _print_selected_frame()


class CpcFrameSub(gdb.Command):
    """`frame SUB ARGS`: `select-frame SUB ARGS`, then the selected frame
printed in the user's terms; `frame view` is gdb's (kept as
cpc-builtin-frame-view), `frame apply` is CpcFrameApply."""

    def __init__(self, sub):
        super().__init__('frame ' + sub, gdb.COMMAND_STACK)
        self.sub = sub

    @_gdb_errors
    def invoke(self, arg, from_tty):
        if self.sub in _FRAME_KEPT:
            gdb.execute('cpc-builtin-frame-%s %s' % (self.sub, arg), from_tty)
            return
        gdb.execute('select-frame %s %s' % (self.sub, arg), to_string=True)
        _print_selected_frame()


_APPLY_FLAGS = ('q', 'c', 's', 'past-main', 'past-entry')


def _words(text):
    """The first word of text and the rest, as written."""
    m = re.match(r'\s*(\S+)\s*', text)
    return (m.group(1), text[m.end():]) if m else (None, '')


def _apply_options(rest):
    """(flags, settings, the command) of `frame apply`'s options at the
    start of rest: -q, -c, -s, -past-main [on|off], -past-entry [on|off]
    (abbreviated as gdb allows), ended by `--` or the first other word."""
    flags, settings = set(), []
    while True:
        w, after = _words(rest)
        if w is None or not w.startswith('-'):
            break
        rest = after
        if w == '--':
            break
        names = [f for f in _APPLY_FLAGS if f.startswith(w[1:])] if len(w) > 1 else []
        if len(names) != 1 and w[1:] not in _APPLY_FLAGS:
            raise gdb.GdbError('Unrecognized option at: %s %s' % (w, rest)
                               if not names else 'Ambiguous option at: %s' % w)
        name = w[1:] if w[1:] in _APPLY_FLAGS else names[0]
        if name.startswith('past-'):
            value, after = _words(rest)
            if value in ('on', 'off', '1', '0', 'yes', 'no', 'enable', 'disable'):
                rest = after
            else:
                value = 'on'
            settings.append(('backtrace ' + name, value))
        else:
            flags.add(name)
    return flags, settings, rest.strip()


def _frame_header(dec):
    """`frame apply`'s line for the frame of decorator dec (selected): gdb's
    location line, a cps function's in the user's terms, as bt shows it."""
    f = dec.inferior_frame()
    out = gdb.execute('cpc-builtin-frame-level %d' % f.level(), to_string=True)
    first = out.split('\n', 1)[0]
    head = re.match(r'#\d+\s+(0x[0-9a-f]+ in )?', first)
    where = _user_location(dec)
    return '%s%s\n' % (head.group(0), where) if head and where else first + '\n'


class CpcFrameApply(gdb.Command):
    """Apply a command to a number of frames, a cps function's named in the
user's terms.
Usage: frame apply all [OPTION]... COMMAND
       frame apply COUNT [OPTION]... COMMAND
       frame apply level LEVEL... [OPTION]... COMMAND
The frames are those `bt` numbers (a cps function's invocation is one frame,
the generated functions around its body being part of it); COUNT < 0: the
outermost ones.  Options (gdb's): -q (no frame lines), -c (go on after an
error, printing it), -s (silently skip frames where COMMAND fails or prints
nothing), -past-main [on|off], -past-entry [on|off].  `faas COMMAND` is
`frame apply all -s COMMAND`."""

    def __init__(self):
        super().__init__('frame apply', gdb.COMMAND_STACK, gdb.COMPLETE_COMMAND, True)

    @_gdb_errors
    def invoke(self, arg, from_tty):
        what, rest = _words(arg)
        if what is None:
            raise gdb.GdbError('Missing COUNT argument.')
        levels = None
        if what == 'level':
            levels = []
            while True:
                w, after = _words(rest)
                if w is None or not re.fullmatch(r'\d+(-\d+)?', w):
                    break
                a, _, b = w.partition('-')
                levels += list(range(int(a), int(b or a) + 1))
                rest = after
            if not levels:
                raise gdb.GdbError('Missing or invalid LEVEL... argument')
        elif what != 'all':
            try:
                count = int(gdb.parse_and_eval(what))
            except gdb.error:
                raise gdb.GdbError('Invalid COUNT argument.')
        flags, settings, cmd = _apply_options(rest)
        if not cmd:
            raise gdb.GdbError('Please specify a command to apply on %s' % (
                'all frames' if what == 'all' else 'the selected frames'))
        selected = _selected_frame()
        saved = [(n, gdb.parameter(n)) for n, _ in settings]
        try:
            for n, v in settings:
                gdb.execute('set %s %s' % (n, v))
            frames = _shown_frames()
            if levels is not None:
                chosen = []
                for lv in levels:
                    f = gdb.newest_frame()
                    for _ in range(lv):
                        f = f.older() if f is not None else None
                    d = _shown_frame_of(frames, f) if f is not None else None
                    if d is not None and d not in chosen:
                        chosen.append(d)
                frames = chosen
            elif what != 'all':
                frames = frames[:count] if count >= 0 else frames[count:]
            for dec in frames:
                self._apply(dec, cmd, flags)
        finally:
            for n, v in saved:
                gdb.execute('set %s %s' % (n, ('on' if v else 'off') if isinstance(v, bool)
                                            else v))
            if selected.is_valid():
                selected.select()

    @staticmethod
    def _apply(dec, cmd, flags):
        dec.inferior_frame().select()
        try:
            out = gdb.execute(cmd, to_string=True)
        except gdb.error as e:
            if 's' in flags:
                return
            if 'q' not in flags:
                dec.inferior_frame().select()
                gdb.write(_frame_header(dec))
            if 'c' not in flags:
                raise
            gdb.write('%s\n' % e)
            return
        if 's' in flags and not out:
            return
        if 'q' not in flags:
            dec.inferior_frame().select()
            gdb.write(_frame_header(dec))
        gdb.write(out)


_INFO_FRAME_KEPT = ('address', 'function', 'view')   # gdb's, as gdb prints them


def _cfa(f):
    """The address gdb's `info frame` gives frame f (`frame at ADDR`)."""
    out = gdb.execute('cpc-builtin-info-frame-level %d' % f.level(), to_string=True)
    m = re.search(r'frame at (0x[0-9a-f]+)', out)
    return m.group(1) if m else None


def _describe_frame(f):
    """gdb's `info frame` of frame f, a cps function's invocation in the
    user's terms: the frame `bt` numbers that f is part of, under the
    function's name, with the user's arguments, called by the frame `bt`
    shows above it (or by the cps callers waiting in the continuation), and
    the caller of the one `bt` shows below it."""
    every = _shown_frames(waiting=True)
    frames = [d for d in every if not isinstance(d, ContinuationFrame)]
    dec = _shown_frame_of(frames, f)
    if dec is None:
        return gdb.execute('cpc-builtin-info-frame-level %d' % f.level(), to_string=True)
    f = dec.inferior_frame()
    out = gdb.execute('cpc-builtin-info-frame-level %d' % f.level(), to_string=True)
    if f == gdb.selected_frame():
        out = re.sub(r'^Stack frame at', 'Stack level %d, frame at' % f.level(), out)
    at = frames.index(dec)
    newer = frames[at - 1] if at > 0 else None
    raw_newer = f.newer()
    if newer is not None and raw_newer is not None and raw_newer != newer.inferior_frame():
        # (the frame below is a cps invocation of several C frames: its body's)
        out = re.sub(r'caller of frame at 0x[0-9a-f]+',
                     'caller of frame at %s' % _cfa(newer.inferior_frame()), out, count=1)
    if not isinstance(dec, RenamedFrame):
        return out
    nxt = every.index(dec) + 1
    waiting = []
    while nxt < len(every) and isinstance(every[nxt], ContinuationFrame):
        waiting.append(every[nxt].lf.func)
        nxt += 1
    older = frames[at + 1] if at + 1 < len(frames) else None
    if waiting:
        called = 'called by %s (waiting in the thread\'s continuation, no frame on the ' \
                 'stack)' % ', '.join(waiting)
    elif older is not None:
        called = 'called by frame at %s' % _cfa(older.inferior_frame())
    else:
        called = None
    if older is not None:
        # (the return into the frame bt shows next, past the generated ones)
        out = re.sub(r'; saved rip = 0x[0-9a-f]+',
                     '; saved rip = 0x%x' % older.inferior_frame().pc(), out, count=1)
    m = re.search(r'^ (called by frame at 0x[0-9a-f]+)?(, )?(caller of frame at 0x[0-9a-f]+)?\n',
                  out, re.M)
    links = ', '.join(x for x in (called, m.group(3) if m else None) if x)
    if m and m.group(0).strip():
        out = out[:m.start()] + (' %s\n' % links if links else '') + out[m.end():]
    elif links:
        out = re.sub(r'^( rip = .*\n)', lambda r: r.group(1) + ' %s\n' % links, out, count=1,
                     flags=re.M)
    out = re.sub(r'^( rip = 0x[0-9a-f]+ in )\S+', lambda r: r.group(1) + dec.function(), out,
                 count=1, flags=re.M)
    if f.older() is not None and _shown_frame_of(frames, f.older()) is dec:
        # (optimised, the body inlined into the generated function it runs
        # in, which is part of the invocation)
        out = re.sub(r'^ inlined into frame \d+(, |\n)', lambda r: ' ' if r.group(1) == ', '
                     else '', out, count=1, flags=re.M)
    args = dec.frame_args() or []
    if all(isinstance(a, _Arg) for a in args):
        out = re.sub(r'(, args:).*$', lambda r: r.group(1) + (' ' if args else '') + ', '.join(
            '%s=%s' % (a.symbol(), _fmt_value(a.value())) for a in args), out, count=1,
            flags=re.M)
    return out


class CpcInfoFrame(gdb.Command):
    """All about the selected stack frame, a cps function's in the user's
terms (its name, its arguments, the frames `bt` shows around it).
Usage: info frame
       info frame level LEVEL
       info frame address|function|view ...  (gdb's)"""

    def __init__(self):
        super().__init__('info frame', gdb.COMMAND_STATUS, gdb.COMPLETE_NONE, True)

    @_gdb_errors
    def invoke(self, arg, from_tty):
        if arg.strip():
            gdb.execute('info frame level ' + arg, from_tty)
            return
        gdb.write(_describe_frame(_selected_frame()))


class CpcInfoFrameSub(gdb.Command):
    """`info frame SUB ARGS`: level in the user's terms; address, function,
view are gdb's (kept as cpc-builtin-info-frame-SUB)."""

    def __init__(self, sub):
        super().__init__('info frame ' + sub, gdb.COMMAND_STATUS)
        self.sub = sub

    @_gdb_errors
    def invoke(self, arg, from_tty):
        if self.sub != 'level':
            gdb.execute('cpc-builtin-info-frame-%s %s' % (self.sub, arg), from_tty)
            return
        if not arg.strip():
            gdb.execute('cpc-builtin-info-frame-level', from_tty)     # (gdb's error)
            return
        n = int(gdb.parse_and_eval(arg))
        f = gdb.newest_frame()
        for _ in range(n):
            f = f.older() if f is not None else None
        if f is None:
            # (gdb's error)
            gdb.execute('cpc-builtin-info-frame-level %s' % arg, from_tty)
            return
        gdb.write(_describe_frame(f))


class CpcMove(gdb.Command):
    """up/down over the frames `bt` numbers."""

    def __init__(self, name, sign, edge):
        super().__init__(name, gdb.COMMAND_STACK)
        self.sign, self.edge = sign, edge

    @_gdb_errors
    def invoke(self, arg, from_tty):
        f = _selected_frame()
        n = int(gdb.parse_and_eval(arg)) if arg.strip() else 1
        every = _shown_frames(waiting=True)
        frames = [d for d in every if not isinstance(d, ContinuationFrame)]
        cur = _shown_frame_of(frames, f)
        at = next(i for i, d in enumerate(frames) if d is cur)
        i = at + self.sign * n
        top, waiting = _waiting_above(every, every.index(cur))
        if top is not None and self.sign > 0:
            # the cps callers have no C frame to select: the outermost cps
            # frame on the stack is the top of the thread's stack, not the
            # scheduler that runs it
            top = frames.index(every[top])
            if i > top:
                if not arg.strip() and at == top:
                    raise gdb.GdbError(
                        '%s: %s\'s callers (%s) wait in the thread\'s continuation, '
                        'not on the stack (bt and cpc bt show them)' % (
                            self.edge[:-1], cur.function(), ', '.join(waiting)))
                i = top
        if not 0 <= i < len(frames):
            if not arg.strip():
                raise gdb.GdbError(self.edge)
            i = max(0, min(i, len(frames) - 1))
        _print_shown_frame(frames[i])


def _replace_commands():
    """Put CpcFrame, its subcommands, up, down and CpcInfoBreakpoints in
    place of gdb's."""
    if gdb.convenience_variable('cpc_gdb_frame_commands') is None:
        for sub in _FRAME_KEPT + ('level',):
            gdb.execute('alias cpc-builtin-frame-%s = frame %s' % (sub, sub), to_string=True)
        for sub in _INFO_FRAME_KEPT + ('level',):
            gdb.execute('alias cpc-builtin-info-frame-%s = info frame %s' % (sub, sub),
                        to_string=True)
        gdb.set_convenience_variable('cpc_gdb_frame_commands', 1)
    CpcFrame()
    for sub in _FRAME_SUBCOMMANDS:
        if sub != 'apply':
            CpcFrameSub(sub)
    CpcFrameApply()
    CpcInfoFrame()
    for sub in _INFO_FRAME_KEPT + ('level',):
        CpcInfoFrameSub(sub)
    CpcMove('up', 1, 'Initial frame selected; you cannot go up.')
    CpcMove('down', -1, 'Bottom (innermost) frame selected; you cannot go down.')
    CpcInfoBreakpoints()      # (defined below)


# ---- info breakpoints in the user's terms ---------------------------------------------
#
# A location in a generated function (chunk K > 1 of a body cut into
# chunks, F__body_K; a resume function or an entry a body is inlined into)
# is listed under the cps function's name, as `bt` shows its frames.
# Replacing `info breakpoints` leaves gdb's own unreachable (its aliases
# follow the replacement), so the table is gdb's `maint info breakpoints`
# less what only that one shows: the internal breakpoints (negative
# numbers), the location row of a breakpoint with a single location, the
# inferior of each location when there is one inferior.  The rows'
# function names are mapped with user_name.

_BP_ROW_RE = re.compile(r'^(\d+(?:\.\d+)?\s.*? in )(\S+)( at )', re.M)


def _breakpoint_numbers(arg):
    """The breakpoint numbers `info breakpoints ARG` asks for (numbers,
    ranges N-M, convenience variables), as gdb reads them."""
    wanted = set()
    try:
        for tok in arg.split():
            a, dash, b = tok.partition('-') if not tok.startswith('-') else (tok, '', '')
            lo = int(gdb.parse_and_eval(a))
            hi = int(gdb.parse_and_eval(b)) if dash else lo
            wanted.update(range(lo, hi + 1))
    except (gdb.error, ValueError):
        return set()                    # (gdb: no breakpoint matches)
    return wanted


def _user_breakpoint_table(text, wanted, one_inferior):
    """gdb's `info breakpoints` table from its `maint info breakpoints`
    table `text`, for breakpoint numbers `wanted` (None: all), in the
    user's terms."""
    rows = []
    keep = multiple = True
    for line in text.splitlines(True):
        m = re.match(r'(-?\d+)(\.\d+)?\s', line)
        if m and m.group(2) is None:              # a breakpoint's row
            n = int(m.group(1))
            keep = n > 0 and (wanted is None or n in wanted)
            multiple = '<MULTIPLE>' in line
        elif m and not multiple:                  # its single location
            continue
        if keep:
            line = _without_first_pass(line)
            if line:
                rows.append(re.sub(r' inf 1(?=\n|$)', '', line) if one_inferior else line)
    if not rows or not rows[0].startswith('Num ') or len(rows) == 1:
        return None
    # the Type column as wide as the longest type it lists (gdb widens it
    # for the internal breakpoints' types too)
    head = rows[0]
    col, disp = head.index('Type'), head.index('Disp')
    types = [x[col:disp].strip() for x in rows[1:] if re.match(r'\d+\s', x)]
    cut = disp - 1 - max([14] + [len(t) for t in types]) - col
    if cut > 0:
        rows = [x[:disp - cut] + x[disp:] if not x.startswith('\t') and
                x[disp - cut:disp].strip() == '' else x for x in rows]
    return _BP_ROW_RE.sub(lambda m: m.group(1) + (user_name(m.group(2)) if GENERATED_RE.match(
        m.group(2)) else m.group(2)) + m.group(3), ''.join(rows))


def _without_first_pass(line):
    """A row of gdb's table without the condition the extension adds to a
    breakpoint on an entry (FIRST_PASS, below): the row is dropped when
    that was the whole condition, and the user's own is kept."""
    m = re.match(r'(\s+stop only if )(.*?)(\n?)$', line)
    if not m or FIRST_PASS not in m.group(2):
        return line
    cond = m.group(2)
    if cond == FIRST_PASS:
        return ''
    user = cond[:-len(' && ' + FIRST_PASS)] if cond.endswith(' && ' + FIRST_PASS) else cond
    if user.startswith('(') and user.endswith(')'):
        user = user[1:-1]
    return m.group(1) + user + m.group(3)


class CpcInfoBreakpoints(gdb.Command):
    """Status of user-settable breakpoints, watchpoints and catchpoints, as
gdb's `info breakpoints` (arguments: breakpoint numbers or ranges), a
location in code generated for a cps function F listed as in F."""

    def __init__(self):
        super().__init__('info breakpoints', gdb.COMMAND_BREAKPOINTS)

    @_gdb_errors
    def invoke(self, arg, from_tty):
        wanted = _breakpoint_numbers(arg) if arg.strip() else None
        out = _user_breakpoint_table(gdb.execute('maint info breakpoints', to_string=True),
                                     wanted, len(gdb.inferiors()) == 1)
        if out is None:
            out = "No breakpoint or watchpoint matching '%s'.\n" % arg.strip() \
                if wanted is not None \
                else 'No breakpoints or watchpoints.\n'
        gdb.write(out)


# ---- a signal's stop, and finish's stop in a resume function ------------------------
#
# gdb prints the frame of a stop itself, after the hook `hook-stop` runs:
# for a signal (`handle SIG stop` implies `print`), and for `finish` from
# a cps function's body, whose C caller is a resume function or an entry
# (the hookpost-finish then goes on to the cps caller's line).  For a
# signal in a cps function the hook prints the frame line in the user's
# terms; for finish's stop in the C caller, hook-finish has asked for no
# C result (`print finish off`, and `print frame-arguments presence` for
# its `Run till exit from` line).  gdb then prints the source line only
# (`print frame-info source-line`, `print address off`); the stop event,
# which comes after gdb's print, puts the settings back.

SIGTRAP = 5
_saved_print = None        # the settings to put back after a stop's print
_finish_caller = None      # the C frame where a quiet finish is to stop
_continuing = False        # within _continue
_quiet_step = False        # gdb's stop ending a next/step not printed: the hook goes on
_continued = False         # _continue ran in this _after_step
_signal_where = None       # a signal's stop within _continue: its frame line, printed there


def _set_until_stop(*settings):
    """`set NAME VALUE` for each (NAME, VALUE), put back at the next stop
    event (after gdb printed the stop)."""
    global _saved_print
    if _saved_print is None:
        _saved_print = []
    for name, value in settings:
        if name not in [n for n, _ in _saved_print]:
            _saved_print.append((name, gdb.parameter(name)))
        gdb.execute('set %s %s' % (name, value))


def _quiet_stop_print():
    """gdb prints the stop about to be printed as its source line only."""
    _set_until_stop(('print frame-info', 'source-line'), ('print address', 'off'))


def _restore_stop_print(event=None):
    global _saved_print, _finish_caller
    _finish_caller = None
    if _saved_print is not None:
        saved, _saved_print = _saved_print, None
        for name, value in saved:
            if isinstance(value, bool):
                value = 'on' if value else 'off'
            gdb.execute('set %s %s' % (name, value))


def _quiet_finish(start):
    """Before a finish from cps frame start: its stop in start's C caller
    (generated code) is not printed (by _before_stop_print), nor its C
    result."""
    global _finish_caller
    try:
        caller = start.older()
    except (gdb.error, RuntimeError):
        return
    if caller is not None and GENERATED_RE.match(cname(caller)):
        # (and its `Run till exit from` line, typed at a terminal, without
        # the body's C arguments)
        _finish_caller = caller
        _set_until_stop(('print finish', 'off'), ('print frame-arguments', 'presence'))


def _before_stop_print(kind=None):
    try:
        sig = int(gdb.parse_and_eval('$_siginfo.si_signo'))
        f = gdb.selected_frame()
    except (gdb.error, RuntimeError, ValueError):
        _restore_stop_print()
        return
    if _finish_caller is not None:
        try:
            there = sig == SIGTRAP and _finish_caller.is_valid() and f == _finish_caller
        except (gdb.error, RuntimeError):
            there = False
        if there:
            _set_until_stop(('suppress-cli-notifications', 'on'))   # finish's stop in the C caller
            return
        _restore_stop_print()            # finish stopped elsewhere: as gdb prints it
    global _quiet_step, _signal_where
    if sig == SIGTRAP:
        if not _continuing and _step_goes_on(f):
            # (the end of gdb's own next/step in the body's epilogue or the
            # scheduler, where the hook goes on from: not the user's line)
            _quiet_step = True
            _set_until_stop(('suppress-cli-notifications', 'on'))
        return
    try:
        dec = _shown_frame_of(_shown_frames(), f)
        where = _user_location(dec) if dec is not None and \
            dec.inferior_frame() == f else None
    except (gdb.error, RuntimeError, ValueError):
        return
    if where is None:
        return
    sal = f.find_sal()
    where = '%s%s\n' % ('0x%016x in ' % f.pc() if f.pc() != sal.pc else '', where)
    if _continuing:
        # (a signal met while the extension runs the program on to where a
        # next/step/finish ends: gdb would print the stop past the capture of
        # the `continue`, which this hook's output is in; _continue prints
        # it, whole)
        _signal_where = where
        _set_until_stop(('suppress-cli-notifications', 'on'))
        return
    gdb.write(where)
    _quiet_stop_print()


def _step_goes_on(f):
    """Whether the stop now ending a next or step (not at a breakpoint, no
    signal) is one _after_step goes on from, to where the thread resumes
    (its conditions, as far as they can be told before the stop's print)."""
    if _step is None or _step[0] not in ('next', 'step'):
        return False
    kind, bp, start, mode, into = _step
    try:
        if bp.hit or any(b.hit for b in into) or _at_user_breakpoint(f):
            return False
        if mode == 'enter':
            return True
        if mode == 'chunk':
            return _still_in(start)
        if _entered_callee(start) or (mode == 'call' and _left_normally(start)) or \
                (mode == 'return' and _still_in(start)):
            return False
        return True
    except (gdb.error, RuntimeError, ValueError, AttributeError):
        return False


def _at_user_breakpoint(f):
    pc = f.pc()
    for b in gdb.breakpoints():
        if b.is_valid() and b.number > 0 and b.enabled and \
                any(loc.address == pc for loc in getattr(b, 'locations', None) or []):
            return True
    return False


# ---- next, step and finish over cps calls ---------------------------------------------
#
# A cps call site returns to the trampoline (`return g__cps(k, ...)`) and
# the caller's body is entered again at the label F__resumed_N when the
# callee returns, maybe after other threads ran.  So `next` (or a `step`
# that does not enter the callee) on a line with a cps call, and `finish`
# out of a cps function, would stop in the body's epilogue or the
# scheduler.  Hooks on those commands set a breakpoint on the resume label
# for this thread only (cpc_k == the thread's continuation, followed when
# cpc_continuation_grow moves it), run to it, and for next/step go on to
# the call's next line.

class _ResumeBreakpoint(gdb.Breakpoint):
    """Stops where this thread (continuation k) gets to addr; at_entry: addr
    is a function's first instruction, where its arguments are still in
    their registers (cpc_k, the first, in rdi: the x86-64 ABI)."""

    stopper = False     # only stops a step on its way (see _after_step)

    def __init__(self, addr, k, at_entry=False):
        super().__init__('*0x%x' % addr if isinstance(addr, int) else addr, internal=True)
        self.silent = True
        self.k = k
        self.at_entry = at_entry
        self.hit = False
        self.returning = None       # (finish) the type the function returns
        self.value = None           # (finish) what it returned
        self.moves = _MoveTracker(self)

    def stop(self):
        f = gdb.selected_frame()
        k = int(f.read_register('rdi')) if self.at_entry else _frame_k(f)
        if k != self.k:
            return False
        self.hit = True
        if self.returning is not None:
            # (the callee's result, above the caller's frame, before the
            # caller takes it and maybe drops its frame)
            try:
                self.value = _returned_value(self.returning, k)
                self.value.fetch_lazy()
            except (gdb.error, RuntimeError, ValueError):
                self.value = None
        return True

    def remove(self):
        self.moves.remove()
        if self.is_valid():
            self.delete()


class _MoveTracker:
    """Follows a continuation through cpc_continuation_grow: its entry
    takes the old address (first argument), each of its `ret` instructions
    gives the new one (result register).  Never stops the program."""

    def __init__(self, owner):
        self.owner = owner
        self.moving = False
        self.bps = []
        sym = gdb.lookup_global_symbol('cpc_continuation_grow')
        if sym is None:
            return
        try:
            start = int(sym.value().address)
            fb = _function_block(start)
            arch = gdb.selected_inferior().architecture()
            rets = [i['addr'] for i in arch.disassemble(fb.start, fb.end - 1)
                    if i['asm'].split()[0].startswith('ret') and _owns(fb, i['addr'])]
        except (gdb.error, RuntimeError, AttributeError):
            return
        self.bps.append(_Probe(start, self.on_entry))
        self.bps += [_Probe(a, self.on_return) for a in rets]

    def on_entry(self):
        self.moving = int(gdb.selected_frame().read_register('rdi')) == self.owner.k

    def on_return(self):
        if self.moving:
            self.owner.k = int(gdb.selected_frame().read_register('rax'))
            self.moving = False

    def remove(self):
        for b in self.bps:
            if b.is_valid():
                b.delete()
        self.bps = []


class _Probe(gdb.Breakpoint):
    def __init__(self, addr, fn):
        super().__init__('*0x%x' % addr if isinstance(addr, int) else addr, internal=True)
        self.silent = True
        self.fn = fn

    def stop(self):
        try:
            self.fn()
        except (gdb.error, RuntimeError, ValueError):
            pass
        return False


_step = None          # (kind, breakpoint, frame) between a command and its hook
_last_stop = None


def _on_stop(event):
    global _last_stop
    _last_stop = event


# ---- the stop line of a breakpoint in the user's terms ------------------------------
#
# gdb prints a breakpoint's stop itself, `Breakpoint 1, count__body (cpc_k=...,
# cpc_resume=0, n=3) at x.cpc:13`, without the frame filter.  The user's
# breakpoints are made silent (gdb then prints nothing), and the stop is
# printed here as gdb would, with the frame as `bt` shows it: `Breakpoint 1,
# count (n=3) at x.cpc:13`.  A breakpoint whose commands begin with `silent`
# stays silent.

_threads_seen = 1          # the highest thread number seen: gdb names the thread once > 1


def _mi_session():
    """Whether this gdb was started for a front end (--interpreter=mi...):
    a silent breakpoint's MI stop record carries no frame, which front ends
    read, so the stops are then left as gdb prints them."""
    try:
        with open('/proc/self/cmdline', 'rb') as f:
            args = f.read().split(b'\0')
    except OSError:
        return False
    for i, a in enumerate(args):
        if a.startswith((b'--interpreter=mi', b'-interpreter=mi', b'-i=mi')) or \
                a in (b'-i', b'--interpreter', b'-interpreter') and \
                i + 1 < len(args) and args[i + 1].startswith(b'mi'):
            return True
    return False


_MI = _mi_session()


def _silence(bp):
    if _MI:
        return
    try:
        if bp.number > 0 and bp.visible and bp.type == gdb.BP_BREAKPOINT and not bp.silent:
            bp.silent = True
            _silenced.add(bp.number)
    except (RuntimeError, gdb.error):
        pass


_silenced = set()


# ---- `break F` on a cps function F ---------------------------------------------------
#
# Optimised, gcc inlines F's body into its entry, its deferred entry and its
# resume functions F__resume_N, and gdb puts a location of `break F` at the
# start of each copy.  A copy inlined into a resume function is where the
# thread goes on after one of F's calls, not a call of F: those locations are
# disabled, so that the breakpoint stops once per call of F, as in C.

_adjusting = False


def _resume_copy(addr):
    """Whether addr starts a copy of a cps function's body inlined into
    one of its own resume functions."""
    try:
        b = gdb.block_for_pc(addr)
    except RuntimeError:
        return False
    chain = []
    while b is not None and not b.is_static and not b.is_global:
        if b.function is not None:
            chain.append(b.function)
        b = b.superblock
    for inner, outer in zip(chain, chain[1:]):
        m = RESUME_RE.match(outer.name or '')
        if m and inner.name == m.group(1) and cname(inner) == inner.name + '__body':
            return True
    return False


def _skip_resume_copies(bp):
    global _adjusting
    if _adjusting:
        return
    try:
        if bp.type != gdb.BP_BREAKPOINT or not bp.visible or not bp.location:
            return
        spec = bp.location.strip()
        if spec.startswith('-function '):
            spec = spec[len('-function '):].strip()
        if not re.fullmatch(r'[A-Za-z_]\w*', spec) or \
                not (gdb.lookup_global_symbol(spec + '__cps') or
                     gdb.lookup_static_symbol(spec + '__cps')):
            return                      # not a cps function's name
        locs = getattr(bp, 'locations', None) or []
        _adjusting = True
        for loc in locs:
            if loc.enabled and _resume_copy(loc.address):
                loc.enabled = False
    except (RuntimeError, gdb.error, AttributeError, NotImplementedError):
        pass
    finally:
        _adjusting = False


# ---- a breakpoint on an entry F__cps: one stop per call ----------------------------
#
# A call that F's entry F__cps defers (its call budget spent, or no room)
# runs later from the trampoline through F__bounce, which calls (or, at
# -O2, jumps to) F__cps again.  A breakpoint of the user's at the start of
# F__cps would stop twice for the one call: it gets the condition
# $_cpc_first_pass() (and-ed with the user's own), false on that second
# pass.  A probe at F__bounce (it never stops the program) notes (F, k) for
# the thread whose continuation k it runs; the condition takes the note
# back at F__cps.  The notes are dropped at every stop.

FIRST_PASS = '$_cpc_first_pass()'
_bounced = set()        # (F, continuation) between F__bounce and F__cps
_bounce_probes = {}     # F: the probe at F__bounce


def _note_bounce(func):
    _bounced.add((func, int(gdb.selected_frame().read_register('rdi'))))


def _one_stop_per_call(bp):
    """Give breakpoint bp the condition FIRST_PASS when one of its
    locations starts a cps function's entry F__cps, with a probe at
    F__bounce."""
    global _adjusting
    if _adjusting:
        return
    try:
        _adjusting = True
        if bp.type == gdb.BP_BREAKPOINT and bp.visible and bp.number > 0:
            _add_first_pass(bp)
    except (RuntimeError, gdb.error, AttributeError, NotImplementedError):
        pass
    finally:
        _adjusting = False


def _cold_part_of_entry(addr):
    """Whether addr lies in F__cps.cold, the part of an entry gcc put
    apart: its deferred path (the call of F__defer or of the runtime's
    cpc_deferN, docs/abi.md), run by a call whose entry has already been
    stopped at."""
    try:
        out = gdb.execute('info symbol 0x%x' % addr, to_string=True)
    except (gdb.error, RuntimeError):
        return False
    # (gdb may print the symbol decoded as Ada's: `f.cps[cold]`)
    m = re.match(r'(\S+?)(__|\.)cps(\.cold|\[cold\])( \+ \d+)? in section', out)
    return m is not None


def _add_first_pass(bp):
    funcs = set()
    for loc in getattr(bp, 'locations', None) or []:
        if _cold_part_of_entry(loc.address):
            # (gdb puts a location at the start of each part of the entry)
            try:
                loc.enabled = False
            except (AttributeError, NotImplementedError, RuntimeError, gdb.error):
                pass
            continue
        b = _function_block(loc.address)
        m = GENERATED_RE.match(cname(b.function)) if b is not None else None
        # (the entry's own code or the runtime's inlined into it, not a
        # copy of the body F inlined into it, which runs once per call)
        if m and _kind_of(m) == 'cps' and \
                _innermost_function(loc.address) not in (m.group(1), m.group(1) + '__body'):
            funcs.add(m.group(1))
    for func in funcs - set(_bounce_probes):
        sym = gdb.lookup_static_symbol(func + '__bounce') or \
            gdb.lookup_global_symbol(func + '__bounce')
        if sym is not None and sym.addr_class == gdb.SYMBOL_LOC_BLOCK:
            # (by name: the program's addresses change when it starts)
            _bounce_probes[func] = _Probe('*%s__bounce' % func,
                                          lambda func=func: _note_bounce(func))
    cond = bp.condition
    if funcs and (cond is None or FIRST_PASS not in cond):
        bp.condition = FIRST_PASS if cond is None else '(%s) && %s' % (cond, FIRST_PASS)


def _innermost_function(addr):
    """The name of the innermost function whose code is at addr: an inlined
    one's (a body's copy inlined into its entry) or the function's own."""
    b = gdb.block_for_pc(addr)
    while b is not None and b.function is None:
        b = b.superblock
    return b.function.name if b is not None else None


class _FirstPass(gdb.Function):
    """$_cpc_first_pass(): 0 where a cps function's entry F__cps runs a
    second time for a call it deferred, through F__bounce; else 1."""

    def __init__(self):
        super().__init__('_cpc_first_pass')

    def invoke(self):
        try:
            f = gdb.selected_frame()
            m = GENERATED_RE.match(cname(f))
            if m and _kind_of(m) == 'cps' and _bounced:
                k = _frame_k(f)
                note = (m.group(1), k if k is not None else int(f.read_register('rdi')))
                if note in _bounced:
                    _bounced.discard(note)
                    return 0
        except (gdb.error, RuntimeError, ValueError, AttributeError):
            pass
        return 1


_FirstPass()


def _drop_bounce_notes(event):
    _bounced.clear()


def _print_breakpoint_stop(event):
    global _threads_seen
    if not isinstance(event, gdb.BreakpointEvent):
        return
    bps = [b for b in event.breakpoints if b.is_valid() and b.number in _silenced]
    if not bps or (bps[0].commands or '').lstrip().startswith('silent'):
        return
    b = bps[0]
    try:
        frame = gdb.execute('frame', to_string=True)
        head = gdb.execute('bt 1', to_string=True).splitlines()[0]
    except (gdb.error, IndexError):
        return
    if not head.startswith('#0 '):
        return
    th = gdb.selected_thread()
    _threads_seen = max([_threads_seen] + [t.num for t in gdb.selected_inferior().threads()])
    who = 'Thread %d "%s" hit ' % (th.num, th.name or '') if _threads_seen > 1 and th else ''
    what = 'Temporary breakpoint' if b.temporary else 'Breakpoint'
    if who:
        what = what[0].lower() + what[1:] if b.temporary else what
    gdb.write('\n%s%s %d, %s\n%s' % (who, what, b.number, head[4:].lstrip(),
                                     frame.split('\n', 1)[1] if '\n' in frame else ''))
    gdb.execute('display')


def _labels_of(func, near_pc):
    """{line: address} of the resume labels of cps function func's body."""
    return {line: addr for (_, line, addr) in _labels(func, near_pc).values()}


def _caller_resume(f, at_stub=False):
    """(address of the resume label, k) of the cps caller of the function
    running in frame f: where it goes on once f's function returns.  With
    at_stub, when the label has no address (optimised: the caller's body
    is inlined into its resume function), (the resume function's address,
    k, True): the thread is stopped where that function starts, then taken
    on to the call's line by _to_call_line."""
    name = cname(f)
    r = running_stack(f)
    if r is None or r[0] is None:
        return None
    k, frames, _ = r
    mine = [g for g in frames if user_name(cname(g)) == user_name(name)]
    skip = _count_bodies(_groups(mine, k))
    top = continuation_frames(k, skip=skip)
    if not top or top[0].note:
        return None
    caller = top[0].func
    func, n, fn = _resume_point(_wait(k) - 8 - _skip_size(k, skip))[:3]
    if n is None or func != caller:
        return None
    line = (_resume_loc(caller, n, fn) or (None, None))[1]
    addr = _labels_of(caller, fn).get(line)
    if addr is None:
        return (fn, k, True) if at_stub and line is not None else None
    # past the restores of the caller's variables, before it takes the
    # result: the last statement on the call's line after the label
    body = body_symbol(caller, gdb.block_for_pc(fn))
    for e in sorted(body.symtab.linetable(), key=lambda e: e.pc):
        if e.pc < addr:
            continue
        if e.line != line:
            break
        addr = e.pc
    return addr, k


def _before_step(kind):
    """Before next/step/finish: the breakpoint where this CPC thread goes
    on, and how to end there (mode: 'call' after a cps call on this line,
    'return' after this function returns, 'enter' into a deferred body)."""
    global _step
    _step = None
    _skip_generated_glue()
    try:
        f = gdb.selected_frame()
        name = cname(f)
        if not GENERATED_RE.match(name):
            return
        target, into = None, []
        if kind == 'finish':
            target, mode = _caller_resume(f, True), 'finish'
            if target is None and not _MI and _thread_outermost(f):
                _step = (kind, _NoBreakpoint(), user_name(name), 'outermost', [])
                _quiet_finish(f)
                return
        elif name.endswith('__cps'):
            # at a cps function's entry: its body may run later, from the
            # trampoline (a deferred entry), or at once (then `step` enters it)
            g = name[:-len('__cps')]
            body = body_symbol(g, f.block())
            first = _first_statement(body) if body is not None else None
            if first is not None:
                # (and a stop where the body starts: its opening is on the
                # entry's line, so gdb's step would take it for the rest of
                # the entry's line and stop in the runtime's helpers that
                # its dispatch calls)
                target, mode = (first, _frame_k(f)), 'enter'
                into = [_ResumeBreakpoint(int(body.value().address), _frame_k(f), True)]
        elif _kind_of(GENERATED_RE.match(name)) == 'body':
            addr = _labels_of(name, f.pc()).get(f.find_sal().line)
            chunk = _next_chunk(f)
            # (a label of this line in the next chunk is past the cut)
            if addr is not None and f.pc() < addr and _owns(_function_block(f.pc()), addr):
                target, mode = (addr, _frame_k(f)), 'call'
                if kind == 'step':
                    into = _into_callees(f, addr)
            elif chunk is not None:
                target, mode = (chunk, _frame_k(f)), 'chunk'
            else:
                # optimised, where the label of this line's resume point
                # has no address, or gcc moved the code: when a callee's
                # entry is still to be entered from here, the thread goes
                # on after the call where the resume function F__resume_N
                # starts
                stub = _resume_stub(f)
                into = _into_callees(f, None, kind == 'step') if stub is not None else []
                if into:
                    target, mode = (stub, _frame_k(f), True), 'call'
                else:
                    target, mode = _caller_resume(f), 'return'
        if target is not None and target[1] is not None:
            _step = (kind, _ResumeBreakpoint(*target), f, mode, into)
            if kind == 'finish' and not _MI:
                _quiet_finish(f)
                _step[1].returning = _return_type(f)
        elif into:
            _step = (kind, _NoBreakpoint(), f, mode, into)
        else:
            for b in into:
                b.remove()
    except (gdb.error, RuntimeError, AttributeError, ValueError):
        _step = None


class _NoBreakpoint:
    """No place to go on to (next/step/finish's target unknown)."""
    hit = False

    def remove(self):
        pass


def _next_chunk(f):
    """The address of the first statement of chunk K + 1 of a body cut
    into chunks when the rest of the line where frame f (chunk K) stands
    goes on to it: chunk K ends by calling chunk K + 1 (the cut, on the
    function's closing line, straight after its last statement), else
    None."""
    m = GENERATED_RE.match(cname(f))
    chunks = chunk_symbols(m.group(1), f.block())
    if len(chunks) < _chunk(m):
        return None
    nxt = chunks[_chunk(m) - 1]
    fb = _function_block(f.pc())
    line = f.find_sal().line
    rows = sorted(e.pc for e in f.find_sal().symtab.linetable() if _owns(fb, e.pc))
    closing = max(gdb.find_pc_line(a).line for a in rows)
    arch = gdb.selected_inferior().architecture()
    for a, b in zip(rows, rows[1:] + [fb.end]):
        if b <= f.pc() or b <= a:
            continue
        if gdb.find_pc_line(a).line not in (line, closing):
            return None
        for insn in arch.disassemble(max(a, f.pc()), b - 1):
            if re.search(r'<%s(\+\d+)?>' % re.escape(nxt.name), insn['asm']):
                return _first_statement(nxt)
    return None


def _first_statement(sym):
    """The address of the first statement of the body or chunk of a body
    whose function symbol is sym: its first code on another line than its
    opening (the dispatch, the frame's push or, in a chunk K > 1, the
    restores of the variables it carries, on the function's line)."""
    fb = _function_block(int(sym.value().address))
    for e in sorted(sym.symtab.linetable(), key=lambda e: e.pc):
        if e.line not in (0, sym.line) and _owns(fb, e.pc):
            return e.pc
    return None


def _resume_stub(f):
    """Optimised: the address of the resume function F__resume_N of the one
    resume point N of the line where frame f (cps function F's body,
    inlined) stands (the table F__lines), or None."""
    func = user_name(cname(f))
    try:
        lines = gdb.lookup_symbol(func + '__lines', f.block())[0]
        if lines is None:
            return None
        v = lines.value()
        line = f.find_sal().line
        ns = [n for n in range(1, v.type.range()[1] + 1) if int(v[n]) == line]
        if len(ns) != 1:
            return None
        stub = gdb.lookup_symbol('%s__resume_%d' % (func, ns[0]), f.block())[0]
        if stub is None:
            # (a body with many resume points: its chunk's dispatch)
            m = GENERATED_RE.match(cname(f))
            chunk = _chunk(m) if m and _kind_of(m) == 'body' else 1
            stub = gdb.lookup_symbol('%s__dispatch%s' % (func, '_%d' % chunk if chunk > 1
                                                           else ''), f.block())[0]
        return int(stub.value().address) if stub is not None else None
    except (gdb.error, RuntimeError, AttributeError, ValueError):
        return None


def _into_callees(f, label, into=True):
    """For `step` at a cps call in the body running in frame f, before its
    resume label: a breakpoint for this thread at the first line of the body
    of each cps function called there (the entries are skipped, see
    _skip_generated_glue), so that step stops there, whether the entry
    calls the body at once or defers it to the trampoline.  label None:
    optimised code, the rest of f's line.  Optimised, where a callee's body
    is inlined into its entry, also a `stopper` where the entry starts (for
    next too, into False: only those)."""
    k = _frame_k(f)
    if k is None:
        return []
    fb = _function_block(f.pc())
    if label is None:
        # (optimised code: the call's line, from here on)
        line = f.find_sal().line
        rows = sorted(e.pc for e in f.find_sal().symtab.linetable() if _owns(fb, e.pc))
        ranges = [(a, b) for a, b in zip(rows, rows[1:] + [fb.end])
                  if b > f.pc() and gdb.find_pc_line(a).line == line]
        ranges = [(max(a, f.pc()), b) for a, b in ranges]
    else:
        ranges = [(f.pc(), label)]
    out = []
    for callee in dict.fromkeys(g for g, _ in _cps_calls(fb, ranges)):
        if callee.startswith('cpc_'):
            continue                    # a primitive, or the runtime's (not stepped into)
        try:
            body = body_symbol(callee, f.block())
            if body is not None:
                if into:
                    # (its first line; a body opening on its first line: its start)
                    first = _first_statement(body)
                    out.append(_ResumeBreakpoint(first, k) if first is not None else
                               _ResumeBreakpoint(int(body.value().address), k, True))
            else:
                firsts = _inlined_first_statement(callee) if into else []
                entry = gdb.lookup_static_symbol(callee + '__cps') or \
                    gdb.lookup_global_symbol(callee + '__cps')
                if (firsts or not into) and entry is not None:
                    # (and a stop at the entry, which gdb's step or next
                    # would enter when the call is a jump: gcc's tail call)
                    stopper = _ResumeBreakpoint(int(entry.value().address), k, True)
                    stopper.stopper = True
                    out += [stopper] + [_ResumeBreakpoint(a, k) for a in firsts]
        except (gdb.error, RuntimeError):
            pass
    return out


def _inlined_first_statement(func):
    """Optimised, where cps function func's body is inlined into its entry
    func__cps and its deferred entry func__bounce (and has no function of
    its own): the addresses where each copy's first statement starts (the
    rows of the lowest line after the declaration's in the inlined body)."""
    out = []
    for helper in ('__cps', '__bounce'):
        sym = gdb.lookup_static_symbol(func + helper) or gdb.lookup_global_symbol(func + helper)
        if sym is None or sym.addr_class != gdb.SYMBOL_LOC_BLOCK or sym.symtab is None:
            continue
        fb = _function_block(int(sym.value().address))
        if fb is None:
            continue
        rows = []
        for e in sym.symtab.linetable():
            if e.line <= sym.line or not _owns(fb, e.pc):
                continue
            b = gdb.block_for_pc(e.pc)
            while b is not None and b.start != fb.start:
                if b.function is not None and b.function.name == func:
                    rows.append(e)
                    break
                b = b.superblock
        if rows:
            first = min(e.line for e in rows)
            pcs = {e.pc for e in rows if e.line == first}
            # where gdb itself would break on that line: gdb's Python line
            # table has no is_stmt, and a row that starts no statement (an
            # instruction gcc scheduled early) would stop in the middle of
            # the line
            try:
                sals = gdb.decode_line('%s:%d' % (sym.symtab.fullname(), first))[1] or ()
            except gdb.error:
                sals = ()
            starts = {sal.pc for sal in sals if sal.pc in pcs}
            out += sorted(starts or pcs)
    return out


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


def _print_frame():
    """What `frame` prints, the frame under the user's names: its line as
    `bt` shows it through the frame filter (the cps function, the user's
    arguments), then the source line."""
    out = gdb.execute('frame', to_string=True)
    try:
        head = gdb.execute('bt 1', to_string=True).splitlines()[0]
    except gdb.error:
        head = None
    if head and head.startswith('#0 '):
        out = '\n'.join([head] + out.split('\n')[1:])
    gdb.write(out)


def _continue():
    """`continue` on the way to where one of the extension's steps ends.
    gdb's output, and the extension's (a user's breakpoint is announced by
    _print_breakpoint_stop), is captured, and shown only when the thread
    stopped for something the user must see: a breakpoint of theirs, a
    signal, the end of the program."""
    global _last_stop, _continuing, _continued
    _last_stop = None
    _continuing = _continued = True
    try:
        out = gdb.execute('continue', to_string=True)
    finally:
        _continuing = False
    global _signal_where
    stop = _last_stop
    where, _signal_where = _signal_where, None
    if isinstance(stop, gdb.BreakpointEvent) and \
            all(not b.is_valid() or b.number <= 0 for b in stop.breakpoints):
        return                          # one of the extension's own breakpoints
    if isinstance(stop, gdb.StopEvent) and not isinstance(
            stop, (gdb.BreakpointEvent, gdb.SignalEvent)):
        return                          # the end of a step of gdb's own
    gdb.write(out)                      # (gdb's `Program received signal` line)
    if isinstance(stop, gdb.SignalEvent) and where is not None:
        # (the stop gdb would print, in the user's terms)
        source = gdb.execute('cpc-builtin-frame-level 0', to_string=True)
        gdb.write(where + (source.split('\n', 1)[1] if '\n' in source else ''))


def _after_step(kind):
    global _step, _quiet_step, _continued
    quiet, _quiet_step = _quiet_step, False
    if _step is None or _step[0] != kind:
        return
    _, bp, start, mode, into = _step
    _step = None
    _continued = False
    try:
        _go_on(kind, bp, start, mode, into)
    finally:
        bp.remove()
        for b in into:
            b.remove()
    if quiet and not _continued and gdb.selected_inferior().pid:
        _print_frame()            # (gdb's stop was not printed, and it stays there)


def _thread_outermost(f):
    """Whether frame f runs the outermost cps function of its thread: no
    cps caller waits in the continuation (it ends the thread)."""
    r = running_stack(f)
    if r is None or r[0] is None:
        return False
    k, frames, _ = r
    mine = [g for g in frames if user_name(cname(g)) == user_name(cname(f))]
    return not continuation_frames(k, skip=_count_bodies(_groups(mine, k))) and \
        f.older() is not None and GENERATED_RE.match(cname(f.older())) is not None


def _end_of_thread(name):
    """finish from a thread's outermost cps function, name: gdb stopped
    in the generated function that called its body (a stop not printed);
    on out of that one (and any other of the invocation's) to the
    scheduler, which ran the thread, as C's finish out of a thread's
    function ends in the library's thread start.  (Optimised, gdb's finish
    out of the body inlined there ends in the scheduler, and prints it.)"""
    quiet = False
    for _ in range(4):
        f = gdb.selected_frame()
        if not GENERATED_RE.match(cname(f)) or user_name(cname(f)) != name:
            break
        quiet = True
        _set_until_stop(('suppress-cli-notifications', 'on'), ('print finish', 'off'))
        gdb.execute('finish', to_string=True)
        if not isinstance(_last_stop, gdb.StopEvent) or isinstance(
                _last_stop, (gdb.BreakpointEvent, gdb.SignalEvent)):
            return
    gdb.write('[cpc: %s was the thread\'s first function: its return ends the thread]\n' % name)
    if quiet:
        _print_frame()


def _go_on(kind, bp, start, mode, into):
    """The rest of a next/step/finish after gdb's own (_after_step)."""
    if mode == 'outermost':
        if not isinstance(_last_stop, (gdb.BreakpointEvent, gdb.SignalEvent)):
            _end_of_thread(start)
        return
    if mode == 'enter':
        # go on to the body's first line unless the step stopped for
        # another reason (the stop where the body starts has done its job)
        if not bp.hit and not isinstance(_last_stop, gdb.SignalEvent) and \
                (any(b.hit for b in into) or not isinstance(_last_stop, gdb.BreakpointEvent)):
            for b in into:
                b.remove()
            _continue()
        if bp.hit:
            _print_frame()
        return
    if any(b.hit and b.stopper for b in into) and not any(
            b.hit and not b.stopper for b in into):
        # stopped where an optimised callee starts: on to its first line,
        # or (next) to where the thread resumes after the call
        for b in into:
            if b.stopper:
                b.remove()
        if not any(not b.stopper for b in into):
            gdb.write('[cpc: the thread waits for the call to return; running other '
                      'threads until it resumes]\n')
        _continue()
    if any(b.hit and not b.stopper for b in into):
        _print_frame()                   # stopped in the callee's body (silently)
        return
    if mode == 'chunk':
        # the cut of a body in chunks: the next chunk's first line
        # (gdb's step may have stopped on the cut's line first)
        if not bp.hit and _still_in(start) and \
                not isinstance(_last_stop, (gdb.BreakpointEvent, gdb.SignalEvent)):
            _continue()
        if bp.hit:
            _print_frame()
        return
    if kind in ('next', 'step') and _entered_callee(start):
        return                           # step went into the callee
    if mode == 'call' and _left_normally(start):
        return                           # the call was not reached
    if mode == 'return' and _still_in(start):
        return                           # the function has not returned
    if isinstance(_last_stop, (gdb.BreakpointEvent, gdb.SignalEvent)) and \
            not bp.hit:
        return                           # stopped for another reason
    if not bp.hit:
        if into:
            gdb.write('[cpc: the call was deferred; running other threads until '
                      'the callee starts]\n')
        else:
            gdb.write('[cpc: the thread waits for the call to return; running other '
                      'threads until it resumes]\n')
        _continue()
        if not gdb.selected_inferior().pid:
            return                       # the program ended meanwhile
    if any(b.hit and not b.stopper for b in into):
        _print_frame()                   # the deferred callee's first line
    elif bp.hit and mode == 'call' and bp.at_entry:
        # (optimised: the thread starts the resume function its caller's
        # body is inlined into; gdb's next from there would take a jump to
        # a cps entry, the next call's, for a return into it)
        if _to_call_line():
            gdb.write(gdb.execute('frame', to_string=True).split('\n', 1)[1])
        else:
            _rest_of_line()
    elif bp.hit and mode in ('call', 'return'):
        _rest_of_line()                  # the rest of the call's line
    elif bp.hit:
        if kind == 'finish' and bp.at_entry:
            _to_call_line()
        _print_frame()
        if kind == 'finish':
            _print_returned(bp.value)


def _return_type(f):
    """The type cps function frame f returns, or None (void): the type of
    the translation's `cpc_ret`, which each `return v;` of its body declares
    in a block of its own (f's function: the body or a chunk)."""
    fb = _function_block(f.pc())
    if fb is None or f.find_sal().symtab is None:
        return None
    for e in f.find_sal().symtab.linetable():
        if not _owns(fb, e.pc):
            continue
        b = gdb.block_for_pc(e.pc)
        while b is not None and b.function is None:
            for sym in b:
                if sym.name == 'cpc_ret':
                    return sym.type
            b = b.superblock
    return None


def _returned_value(rtype, k):
    """The value a cps function of return type rtype returned to the
    thread of continuation k, now back in its caller: `return v;` left v
    just above the caller's frame, the top one (cpc_return_reserved)."""
    ctype = gdb.lookup_type('cpc_continuation')
    off_c = next(fl.bitpos // 8 for fl in ctype.fields() if fl.name == 'c')
    top = k + off_c + _u32(k + 8)
    return gdb.Value(top).cast(rtype.pointer()).dereference()


def _to_call_line():
    """From the start of the resume function where an optimised caller's
    body goes on after a call, on to the call's line in it (its first code
    of that line: the result taken, the variables restored), as `finish`
    stops in C."""
    f = gdb.selected_frame()
    m = RESUME_RE.match(cname(f))
    if m is None:
        return False
    loc = _resume_loc(m.group(1), int(m.group(2)), f.pc())
    fb = _function_block(f.pc())
    if loc is None or fb is None:
        return False
    rows = sorted((e.pc, e.line) for e in f.find_sal().symtab.linetable()
                  if e.pc > f.pc() and _owns(fb, e.pc))
    # (the last row of the line's first run: past the restores)
    pc = None
    for addr, line in rows:
        if line == loc[1]:
            pc = addr
        elif pc is not None:
            break
    if pc is None:
        return False
    _set_until_stop(('suppress-cli-notifications', 'on'))
    try:
        gdb.execute('advance *0x%x' % pc, to_string=True)
    finally:
        _restore_stop_print()
    return gdb.selected_frame().pc() == pc


def _print_returned(v):
    """finish's `Value returned is $N = V` (nothing for a void function)."""
    if v is None:
        return
    try:
        n = gdb.add_history(v)
        gdb.write('Value returned is $%d = %s\n' % (n, v.format_string()))
    except (gdb.error, RuntimeError, ValueError, AttributeError):
        pass


def _rest_of_line():
    """`next` to the end of the line where a thread resumed, and, when the
    line is the last of a chunk of a body cut into chunks, on into the next
    chunk's first line (gdb runs no hooks for a command run from a hook)."""
    try:
        f = gdb.selected_frame()
        m = GENERATED_RE.match(cname(f))
        addr = _next_chunk(f) if m and _kind_of(m) == 'body' else None
    except (gdb.error, RuntimeError, AttributeError, ValueError):
        addr = None
    if addr is None:
        gdb.execute('next')
        return
    # (straight code to the next chunk: the thread does not suspend)
    bp = _ResumeBreakpoint(addr, _frame_k(f))
    try:
        _continue()
        if bp.hit:
            _print_frame()
    finally:
        bp.remove()


def _still_in(start):
    try:
        return start.is_valid() and gdb.selected_frame() == start
    except gdb.error:
        return False


def _left_normally(start):
    """Still in the body that made the call, elsewhere than its epilogue
    (the call was not reached: a jump, or the step ended early)."""
    try:
        f = gdb.selected_frame()
        if not start.is_valid() or f != start:
            return False
        fb = _function_block(f.pc())
        last = max((e for e in f.find_sal().symtab.linetable()
                    if _owns(fb, e.pc)), key=lambda e: e.pc)
        return f.find_sal().line != last.line
    except (gdb.error, RuntimeError, ValueError, AttributeError):
        return False


def _entered_callee(start):
    try:
        f = gdb.selected_frame()
    except gdb.error:
        return False
    if f == start or not start.is_valid():
        return False
    return any(g == start for g in _older(f))


class _Hook(gdb.Command):
    def __init__(self, name, fn, kind):
        super().__init__(name, gdb.COMMAND_NONE)
        self.fn, self.kind = fn, kind

    def invoke(self, arg, from_tty):
        self.fn(self.kind)


# The runtime's functions (cpc_*: primitives, the ABI's inline helpers)
# are the scheduler's code, not the program's: `step` does not enter them
# (`skip delete` undoes this).
if gdb.convenience_variable('cpc_gdb_loaded') is None:
    gdb.execute('skip -rfunction ^cpc_', to_string=True)
    # a spawn thunk F__spawn_N__start (the translator reserves F__spawn_N
    # for every function F of the file)
    gdb.execute('skip -rfunction __spawn_[0-9]+__start$', to_string=True)

# Nor the glue the translation generates around a cps function E's body
# (named E): its entry E__cps, deferred entry E__bounce/E__defer, resume
# functions E__resume_N (or E__dispatch, E__dispatch_K) and, for a spawned
# statement E = F__spawn_N, the thunk E__start, and the chunks K > 1 of a
# body cut into chunks, E__body_K.  A `step` at a cps call then goes over the entry, and the
# hooks stop it at the callee's body (_into_callees; optimised, at its
# inlined copies); a step or next across a cut stops at the next chunk's
# first line (_next_chunk).  The rule names the cps functions that have an
# entry and a body or a deferred entry (optimised, the body may have no
# function of its own), not every name with such a
# suffix: a native function of the user's may be called `x__start` or even
# `x__cps` (the translator renames only names spelt like those of a cps
# function of the file).  The functions are read from gdb's symbols before
# each next/step/finish, again whenever the program's objfiles change (a
# shared library's), one skip rule per new set of names.

GLUE_SUFFIXES = ('(cps|bounce|defer|resume_[0-9]+|dispatch|dispatch_[0-9]+|start|'
                 'body_[0-9]+)')
_glue_skipped = set()      # the cps functions whose glue a skip rule names
_glue_objfiles = None


def _skip_generated_glue():
    global _glue_objfiles
    try:
        objfiles = tuple(o.filename for o in gdb.objfiles())
        if objfiles == _glue_objfiles:
            return
        _glue_objfiles = objfiles
        out = gdb.execute('info functions -q -n __cps$', to_string=True)
    except gdb.error:
        return
    names = set()
    for m in re.finditer(r'\b([A-Za-z_]\w*)__cps\(', out):
        e = m.group(1)
        if e not in _glue_skipped and not e.startswith('cpc_') and \
                (body_symbol(e) is not None or GENERATED_RE.match(e + '__cps')):
            names.add(e)
    if names:
        gdb.execute('skip -rfunction ^(%s)__%s$' % ('|'.join(sorted(names)), GLUE_SUFFIXES),
                    to_string=True)
        _glue_skipped.update(names)


def _define_hook(name, body, lost='next/step/finish will not follow CPC threads across '
                                   'cps calls'):
    """Define a user hook unless one not made here exists (then say so:
    what the extension will not do without it)."""
    try:
        old = gdb.execute('show user %s' % name, to_string=True)
    except gdb.error:
        old = ''
    if old.strip() and body not in old:
        gdb.write('cpc-gdb: keeping your %s; %s\n' % (name, lost))
        return
    if not old.strip():
        gdb.execute('define %s\n%s\nend' % (name, body))


def _define_hooks():
    for kind in ('next', 'step', 'finish'):
        _define_hook('hook-' + kind, 'cpc-before-' + kind)
        _define_hook('hookpost-' + kind, 'cpc-after-' + kind)
    if not _MI and FrameDecorator is not object:
        _define_hook('hook-stop', 'cpc-before-stop-print',
                     "a signal's stop in a cps function will be printed in C's terms")


def _define_hooks_at_stop(event):
    gdb.events.stop.disconnect(_define_hooks_at_stop)
    _define_hooks()


for _kind in ('next', 'step', 'finish'):
    _Hook('cpc-before-' + _kind, _before_step, _kind)
    _Hook('cpc-after-' + _kind, _after_step, _kind)
_Hook('cpc-before-stop-print', _before_stop_print, 'stop')
# Loaded with libcpc.so, the script runs while `run` loads the program's
# shared libraries, and a `define` there would end `run` early (the program
# is left running): the hooks are defined at the program's first stop.
if gdb.selected_inferior().pid:
    gdb.events.stop.connect(_define_hooks_at_stop)
else:
    _define_hooks()
for _bp in gdb.breakpoints():
    _silence(_bp)
    _skip_resume_copies(_bp)
    _one_stop_per_call(_bp)
# (the script loaded again, by `source` or another program's section,
# replaces the handlers of the previous load: a stop is printed once)
for _registry, _fn in getattr(gdb, '_cpc_gdb_handlers', []):
    _registry.disconnect(_fn)
gdb._cpc_gdb_handlers = [
    (gdb.events.stop, _on_stop),
    (gdb.events.stop, _restore_stop_print),
    (gdb.events.breakpoint_created, _silence),
    (gdb.events.breakpoint_created, _skip_resume_copies),
    (gdb.events.breakpoint_modified, _skip_resume_copies),
    (gdb.events.breakpoint_created, _one_stop_per_call),
    (gdb.events.breakpoint_modified, _one_stop_per_call),
    (gdb.events.stop, _drop_bounce_notes),
    (gdb.events.stop, _print_breakpoint_stop),
    (gdb.events.new_objfile, _forget_dead_tables),
    (gdb.events.clear_objfiles, _forget_dead_tables),
]
for _registry, _fn in gdb._cpc_gdb_handlers:
    _registry.connect(_fn)

InfoCpcLocals('locals')
InfoCpcLocals('args')
InfoCpcThreads()
CpcThreadCmd()
CpcPrefix()
CpcBt()
if FrameDecorator is not object:
    CpcFrameFilter()
    if not _MI:
        _replace_commands()
gdb.set_convenience_variable('cpc_gdb_loaded', 1)
