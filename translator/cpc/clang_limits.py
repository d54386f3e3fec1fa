"""Errors of the front-end that are Clang's limits, not the program's.

The front-end is Clang (through libclang); the generated C is compiled by
the C compiler (gcc), which accepts some C that Clang refuses (a `u'...'`
literal with a character outside the basic plane, which gcc truncates, GNU
extensions Clang never implemented).  Where the front-end can be made to
read such a construct it is (frontend.py: line markers with flags;
frontend_include/: gcc's atomic operations on plain objects).  For the
rest, when the first parse fails, the C compiler checks the same text
(`-fsyntax-only`, in the front-end's mode, as conditionals.py preprocesses
it); if it accepts it, each of Clang's errors says that it is Clang's
limit, at the construct's line, instead of looking like an error of the
program.  This costs one run of the C compiler, and only on a failure.
"""
import os
import subprocess

PREFIX = ("the front-end (Clang) cannot read this, though the C compiler accepts it "
          "(a limit of Clang that cpcc cannot work around here): ")


def accepted_by_cc(text, path, cc):
    """Whether the C compiler command `cc` accepts `text` (the file `path`)."""
    cmd = list(cc) + ['-D__CPC_FRONTEND__', '-fsyntax-only', '-w', '-x', 'c',
                      '-iquote', os.path.dirname(os.path.abspath(path)), '-']
    try:
        r = subprocess.run(cmd, input=text, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def explain(diags, text, path, cc):
    """Mark the front-end's errors `diags` (frontend.Diags) of file `path`
    as Clang's limits when the C compiler `cc` (None: unknown) accepts
    `text`."""
    if cc is None or not any(d.from_clang for d in diags.diags) or \
            not accepted_by_cc(text, path, cc):
        return
    for d in diags.diags:
        if d.from_clang and not d.msg.startswith(PREFIX):
            d.msg = PREFIX + d.msg
