"""Skip rules: `step` does not enter the runtime's functions, nor the glue
the translation generates around a cps function's body."""

import re

import gdb

from .names import GENERATED_RE
from .symbols import body_symbol


def skip_runtime():
    """The runtime's functions (cpc_*: primitives, the ABI's inline helpers)
    are the scheduler's code, not the program's: `step` does not enter them
    (`skip delete` undoes this)."""
    if gdb.convenience_variable('cpc_gdb_loaded') is None:
        gdb.execute('skip -rfunction ^cpc_', to_string=True)
        # a spawn thunk F__spawn_N__start (the translator reserves F__spawn_N
        # for every function F of the file)
        gdb.execute('skip -rfunction __spawn_[0-9]+__start$', to_string=True)


# The glue the translation generates around a cps function E's body
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
