"""After next, step and finish (hookpost-CMD): the rest of the command, from
where gdb's own stopped on to where the thread goes on, running other
threads meanwhile, and the stop printed in the user's terms."""

import gdb

from . import state
from .cpsframe import _frame_k
from .names import GENERATED_RE, _kind_of, RESUME_RE, shown_name
from .resume_breakpoints import _ResumeBreakpoint
from .resume_lines import _resume_loc
from .step_end import _entered_callee, _left_normally, _out_of_users_code, _still_in
from .step_targets import (_ends_function, _next_chunk, _NoBreakpoint, _past_restores,
                           _thread_outermost)
from .stop_print import _restore_stop_print, _set_until_stop
from .symbols import cname, _function_block, _owns, user_name


def _print_frame(level=True):
    """What `frame` prints, the frame under the user's names: its line as
    `bt` shows it through the frame filter (the cps function, the user's
    arguments), then the source line; without level, as a step into
    another function prints it (no `#0`)."""
    out = gdb.execute('frame', to_string=True)
    try:
        head = gdb.execute('bt 1', to_string=True).splitlines()[0]
    except gdb.error:
        head = None
    if head and head.startswith('#0 '):
        out = '\n'.join([head if level else head[len('#0'):].lstrip()] + out.split('\n')[1:])
    gdb.write(out)


def _continue():
    """`continue` on the way to where one of the extension's steps ends.
    gdb's output, and the extension's (a user's breakpoint is announced by
    _print_breakpoint_stop), is captured, and shown only when the thread
    stopped for something the user must see: a breakpoint of theirs, a
    signal, the end of the program."""
    state.last_stop = None
    state.continuing = state.continued = True
    try:
        out = gdb.execute('continue', to_string=True)
    finally:
        state.continuing = False
    stop = state.last_stop
    where, state.signal_where = state.signal_where, None
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
    quiet, state.quiet_step = state.quiet_step, False
    if state.step is None or state.step[0] != kind:
        return
    _, bp, start, mode, into = state.step
    state.step = None
    state.continued = False
    try:
        _go_on(kind, bp, start, mode, into)
    finally:
        bp.remove()
        for b in into:
            b.remove()
    if quiet and not state.continued and gdb.selected_inferior().pid:
        _print_frame()            # (gdb's stop was not printed, and it stays there)


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
        if not isinstance(state.last_stop, gdb.StopEvent) or isinstance(
                state.last_stop, (gdb.BreakpointEvent, gdb.SignalEvent)):
            return
    _say_thread_ends(name)
    if quiet:
        _print_frame()


def _say_thread_ends(name):
    gdb.write('[cpc: %s was the thread\'s first function: its return ends the thread]\n'
              % shown_name(name))


def _past_thread_end(start, func):
    """After gdb's own next/step from frame start, the thread's first
    function func, over the rest of its last line: where that ended in the
    scheduler or the generated code that ran func (the thread has ended),
    on, as a C thread's end goes on into code the user does not see, to
    the program's next stop (a breakpoint, a signal, its end).  Whether it
    went on."""
    if isinstance(state.last_stop, (gdb.BreakpointEvent, gdb.SignalEvent)) or \
            not gdb.selected_inferior().pid or _still_in(start) or \
            not _out_of_users_code(gdb.selected_frame()):
        return False
    _say_thread_ends(func)
    _continue()
    return True


def _go_on(kind, bp, start, mode, into):
    """The rest of a next/step/finish after gdb's own (_after_step)."""
    if mode == 'outermost':
        if not isinstance(state.last_stop, (gdb.BreakpointEvent, gdb.SignalEvent)):
            _end_of_thread(start)
        return
    if mode == 'ends':
        # next/step past the end of a thread's first function: gdb's own
        # stopped in the scheduler or the generated code that ran it (not
        # printed); on, as a C thread's end goes on into code the user does
        # not see, to the program's next stop (a breakpoint, a signal, its
        # end)
        _past_thread_end(start, bp.func)
        return
    if mode == 'enter':
        # go on to the body's first line unless the step stopped for
        # another reason (the stop where the body starts has done its job)
        if not bp.hit and not isinstance(state.last_stop, gdb.SignalEvent) and \
                (any(b.hit for b in into) or not isinstance(state.last_stop, gdb.BreakpointEvent)):
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
                not isinstance(state.last_stop, (gdb.BreakpointEvent, gdb.SignalEvent)):
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
    if isinstance(state.last_stop, (gdb.BreakpointEvent, gdb.SignalEvent)) and \
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
    elif bp.hit and mode in ('call', 'return') and bp.at_entry:
        # (optimised: the thread starts the resume function its caller's
        # body is inlined into; gdb's next from there would take a jump to
        # a cps entry, the next call's, for a return into it)
        if _to_call_line():
            if mode == 'return':
                _print_frame(False)     # (in the caller: its name, as C's next shows it)
            elif _ends_thread(gdb.selected_frame()):
                _rest_of_line()         # (which goes on past the thread's end)
            else:
                gdb.write(gdb.execute('frame', to_string=True).split('\n', 1)[1])
        else:
            _rest_of_line()
    elif bp.hit and mode in ('call', 'return'):
        _rest_of_line()                  # the rest of the call's line
    elif bp.hit:
        if kind == 'finish' and bp.at_entry:
            _to_call_line()
        elif kind == 'finish' and bp.then is not None:
            _advance(bp.then)
        _print_frame()
        if kind == 'finish':
            _print_returned(bp.value)


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
    # (the line's first run after the function's start, up to the first
    # call: past the restores, before the statements of the user's that
    # share the call's line)
    start = next((pc for pc, line in sorted(
        (e.pc, e.line) for e in f.find_sal().symtab.linetable()
        if e.pc > f.pc() and _owns(fb, e.pc)) if line == loc[1]), None)
    if start is None:
        # (gcc put the end of the call, the result's store, on the next
        # line's code: the function's start is the call's line)
        return f.find_sal().line == loc[1]
    return _advance(_past_restores(start, loc[1]))


def _advance(pc):
    """On to pc in the selected frame, without a word."""
    if gdb.selected_frame().pc() == pc:
        return True
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


def _ends_thread(f):
    """Whether the rest of the line where frame f stands ends the thread:
    f runs its first function, whose last line it is (gdb's next then ends
    in the scheduler or the generated code that ran it)."""
    try:
        return GENERATED_RE.match(cname(f)) is not None and _ends_function(f) and \
            _thread_outermost(f)
    except (gdb.error, RuntimeError, AttributeError, ValueError):
        return False


def _rest_of_line():
    """`next` to the end of the line where a thread resumed, and, when the
    line is the last of a chunk of a body cut into chunks, on into the next
    chunk's first line (gdb runs no hooks for a command run from a hook)."""
    try:
        f = gdb.selected_frame()
        m = GENERATED_RE.match(cname(f))
        addr = _next_chunk(f) if m and _kind_of(m) == 'body' else None
        ends = addr is None and _ends_thread(f)
    except (gdb.error, RuntimeError, AttributeError, ValueError):
        addr, ends = None, False
    if ends:
        # (its stop out of the user's code is not printed: _step_goes_on)
        func = user_name(cname(f))
        state.last_stop = None
        state.step = ('next', _NoBreakpoint(func), f, 'ends', [])
        try:
            gdb.execute('next')
        finally:
            state.step, state.quiet_step = None, False
        _past_thread_end(f, func)
        return
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
