"""The names of the C functions the translation generates for a cps
function F (F__body, F__cps, F__bounce, F__resume_N, F__dispatch[_K], a
spawn thunk's F__spawn_N__start, ...) and of the variables it adds, told
apart from the user's.  The translator's list of generated suffixes is
translator/cpc/reserved.py: this extension, which does not import the
translator, keeps those of the code it steps through."""

import re

import gdb


# Functions of the runtime that run continuations: the logical stack of a
# running CPC thread ends where one of them is reached.
TRAMPOLINES = ('sched_trampoline', 'sched_loop', 'sched_loop_default', 'sched_loop_other',
               'cpc_scheduler_run', 'cpc_scheduler_run_once', 'cpc_main_loop',
               'cpc__sched_run', 'pool_worker', 'cpc_continuation_run')
# The generated functions' names
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
# a spawned statement outlined from F, the cps function F__spawn_N in the C
SPAWNED_RE = re.compile(r'^(.+)__spawn_(\d+)$')


def shown_name(func):
    """The name a cps function is shown under: its own, or for a spawned
    statement outlined from F (F__spawn_N in the C) the name of its symbols,
    F.spawn.N, as gcc names the parts it outlines (`main._omp_fn.0`): the
    user wrote no name for it, and its generated C name would read as one
    of theirs.  Only the views print it; the extension reasons on the C
    names."""
    m = SPAWNED_RE.match(func or '')
    return '%s.spawn.%s' % (shown_name(m.group(1)), m.group(2)) if m else func


CPS_CALL_RE = re.compile(r'<([A-Za-z_][A-Za-z0-9_]*)__cps(?:\+\d+)?>')


RENAMED_RE = re.compile(r'^(.+)__\d+$')      # a local renamed apart (rename.py)


# the label of a resume point in a body (optimised, gdb lists it among the
# locals, <optimized out>)
RESUMED_LABEL_RE = re.compile(r'^.+__resumed_\d+$')


def _is_generated_name(name):
    return name.startswith(('cpc_', '__cpc')) or RESUMED_LABEL_RE.match(name) is not None
