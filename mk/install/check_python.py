"""Run by `make install` with INSTALL_PYTHON: refuse an interpreter that the
users of the installation could not run -- too old for the translator, or
inside a directory that other users cannot enter or read (a home directory
of mode 700, as an interpreter managed per user usually is).  The installed
cpcc would otherwise fail for everybody but its installer with "Permission
denied"."""
import os
import stat
import sys

MIN = (3, 11)


def refuse(why):
    sys.stderr.write('make install: INSTALL_PYTHON=%s %s; set INSTALL_PYTHON to a python3 '
                     '(%d.%d or newer) that every user can run, e.g. /usr/bin/python3\n'
                     % (sys.executable, why, *MIN))
    sys.exit(1)


def others_can_reach(path):
    """Every directory above `path` is searchable by others, and `path`
    itself readable by them (and searchable if a directory)."""
    path = os.path.realpath(path)
    parts = path.split(os.sep)
    for i in range(1, len(parts)):
        d = os.sep.join(parts[:i]) or os.sep
        if not os.stat(d).st_mode & stat.S_IXOTH:
            return d
    mode = os.stat(path).st_mode
    need = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    return None if mode & need == need else path


if sys.version_info[:2] < MIN:
    refuse('is Python %d.%d' % sys.version_info[:2])
home_dirs = {os.path.realpath(os.path.expanduser('~'))}
for what in (sys.executable, sys.base_prefix, os.path.dirname(os.__file__)):
    real = os.path.realpath(what)
    if any(real == h or real.startswith(h + os.sep) for h in home_dirs if h != os.sep):
        refuse('lives in a home directory (%s)' % real)
    blocked = others_can_reach(real)
    if blocked is not None:
        refuse('needs %s, which other users cannot %s'
               % (blocked, 'enter' if blocked != real or os.path.isdir(real) else 'read'))
