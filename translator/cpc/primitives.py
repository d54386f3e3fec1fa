"""The runtime's primitives with optional arguments (declared `...` to
Clang): each argument in order, as (C type, default or None when required,
name).  typecheck checks a call's arguments against it; the emitter writes
the defaults of the arguments a call leaves out (the C entry takes them
all, after the continuation)."""

PRIMITIVES = {
    'cpc_wait': [('cpc_condvar *', None, 'c'), ('int', '-1', 'sec'), ('int', '0', 'usec')],
    'cpc_sleep': [('int', None, 'sec'), ('int', '0', 'usec'),
                  ('cpc_condvar *', '(cpc_condvar *)0', 'c')],
    'cpc_io_wait': [('int', None, 'fd'), ('int', None, 'direction'),
                    ('cpc_condvar *', '(cpc_condvar *)0', 'c')],
}


def signature(name):
    """`cpc_sleep(int sec [, int usec [, cpc_condvar *c]])`."""
    out, opened = '', 0
    for i, (t, default, n) in enumerate(PRIMITIVES[name]):
        decl = '%s%s%s' % (t, '' if t.endswith('*') else ' ', n)
        if default is None:
            out += (', ' if i else '') + decl
        else:
            out += ' [%s%s' % (', ' if i else '', decl)
            opened += 1
    return '%s(%s%s)' % (name, out, ']' * opened)
