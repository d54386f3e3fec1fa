"""finish's `Run till exit from` line for a cps frame, in the user's terms.

gdb prints that line itself, after hook-finish and before it runs the
program, with its own frame printer: the body's C arguments (`cpc_k`,
`cpc_resume`) before the user's, and no setting or hook changes what it
names.  Whether it is printed at all depends on the command coming from a
terminal, which a hook cannot know.  So hook-finish sends gdb's output to
a file of its own (`set logging redirect`) until the program resumes (the
`cont` event, which comes right after the line), and then writes what gdb
wrote there, the `Run till exit from` line with the frame as `bt` shows it
(`square (v=3) at lines.cpc:7`).  Should the program not resume (an error
before it runs), the next stop or prompt puts the output back."""

import os
import re
import tempfile

import gdb

from .shown import _shown_frame_of, _shown_frames, _user_location

_RUN_TILL = re.compile(r'^(Run till exit from #\d+\s+(?:0x[0-9a-f]+ in )?).*$', re.M)

_LOGGING = ('logging file', 'logging overwrite', 'logging redirect', 'logging debugredirect')

_held = None            # (file name, the frame's line, saved settings) while redirected


def _setting(value):
    if isinstance(value, bool):
        return 'on' if value else 'off'
    return value


def hold(frame):
    """Before finish from frame: redirect gdb's output when the frame is a
    cps function's (its line differs from gdb's)."""
    global _held
    if _held is not None or gdb.parameter('logging enabled'):
        return                          # (the user's own logging is left alone)
    try:
        where = _user_location(_shown_frame_of(_shown_frames(), frame))
    except (gdb.error, RuntimeError, ValueError, AttributeError):
        where = None
    if where is None:
        return
    fd, name = tempfile.mkstemp(prefix='cpc-gdb-finish-', suffix='.txt')
    os.close(fd)
    saved = [(s, gdb.parameter(s)) for s in _LOGGING]
    for s, v in (('logging file', name), ('logging overwrite', 'on'),
                 ('logging redirect', 'on'), ('logging debugredirect', 'on'),
                 ('logging enabled', 'on')):
        gdb.execute('set %s %s' % (s, v))
    _held = (name, where, saved)
    gdb.events.cont.connect(release)
    gdb.events.stop.connect(release)
    gdb.events.before_prompt.connect(release)


def release(event=None):
    """Put gdb's output back and write what it wrote meanwhile, finish's
    line in the user's terms."""
    global _held
    if _held is None:
        return
    name, where, saved = _held
    _held = None
    for registry in (gdb.events.cont, gdb.events.stop, gdb.events.before_prompt):
        try:
            registry.disconnect(release)
        except (RuntimeError, ValueError):
            pass
    gdb.execute('set logging enabled off')
    for s, v in saved:
        gdb.execute('set %s %s' % (s, _setting(v)))
    try:
        with open(name) as f:
            out = f.read()
        os.unlink(name)
    except OSError:
        return
    gdb.write(_RUN_TILL.sub(lambda m: m.group(1) + where, out, count=1))
