"""Where a C frame of cps code stands: the continuation it runs (cpc_k),
the parameters of a chunk K > 1 of a body, and whether the frame is on its
function's first or last line, where its invocation holds no frame of the
continuation."""

import gdb

from .continuation import _resume_point, _wait
from .resume_lines import waits_on_line
from .names import _chunk, chunk_symbols, GENERATED_RE, _is_generated_name, _kind_of
from .symbols import body_symbol, cname, _function_block, _owns, user_name


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
        first = line == fb.function.line and chunk == 1
        if not first and (line != last or (m and _kind_of(m) == 'body' and
                                           len(chunk_symbols(m.group(1), f.block())) >= chunk)):
            return False
        if k is not None and waits_on_line(cname(f), f.pc(), line):
            # (a call's line that is also the first or the last, as in a
            # function or a spawned statement written on one line: the line
            # does not tell the push, the call and its return, the drop
            # apart; the frame is held while the continuation's top frame
            # is the function's -- save in a recursion on that line)
            return _resume_point(_wait(k) - 8)[0] != user_name(cname(f))
        if first:
            return True
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


def _older(f):
    f = f.older()
    while f is not None:
        yield f
        f = f.older()
