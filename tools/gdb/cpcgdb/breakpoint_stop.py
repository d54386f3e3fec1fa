"""The stop line of a breakpoint in the user's terms.

gdb prints a breakpoint's stop itself, `Breakpoint 1, count__body (cpc_k=...,
cpc_resume=0, n=3) at x.cpc:13`, without the frame filter.  The user's
breakpoints are made silent (gdb then prints nothing), and the stop is
printed here as gdb would, with the frame as `bt` shows it: `Breakpoint 1,
count (n=3) at x.cpc:13`.  A breakpoint whose commands begin with `silent`
stays silent."""

import gdb


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
