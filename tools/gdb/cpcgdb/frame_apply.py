"""`frame apply` (which gdb's faas and tfaas run by name) over the frames
`bt` numbers, with bt's lines."""

import re

import gdb

from .shown import _gdb_errors, _selected_frame, _shown_frame_of, _shown_frames, _user_location


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
