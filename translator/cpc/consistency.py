"""Consistency check (after header inlining): every declaration of a
function agrees on whether it is cps."""
import re

from . import frontend as fe

K = fe.K

# a declaration that spells one of these before the name spells its type itself
TYPE_WORDS_RE = re.compile(
    rb'\b(int|void|char|long|short|float|double|unsigned|signed|struct|union|enum)\b')


def cps_spelling_re(u):
    """`cps`, or an object-like macro that stands for it (QEMU's
    `#define coroutine_fn cps`, also through other such macros)."""
    bodies = {}
    for d in u.top():
        if d.kind == K.MACRO_DEFINITION:
            toks = [t.spelling for t in d.get_tokens()]
            if len(toks) == 2 and toks[0] == d.spelling:
                bodies[d.spelling] = toks[1]
    names = {'cps'}
    grew = True
    while grew:
        grew = False
        for name, body in bodies.items():
            if body in names and name not in names:
                names.add(name)
                grew = True
    alts = b'|'.join(re.escape(n.encode()) for n in sorted(names))
    return re.compile(rb'\b(' + alts + rb')\b')


def check_consistency(u):
    """Every declaration of a function agrees on cps-ness (Clang keeps the
    first declaration's type, so the spelling is checked)."""
    seen = {}
    errs = []
    spelling = cps_spelling_re(u)
    for c in u.top():
        if c.kind != K.FUNCTION_DECL:
            continue
        if u.in_main_file(c):
            a = c.extent.start.offset
            nameoff = c.location.offset
            spelled = spelling.search(u.text[a:nameoff]) is not None
            if not spelled:
                # the type may carry it through a typedef
                spelled = fe.is_cps_function_type(c.type) and \
                    u.text[a:nameoff].strip() != b'' and \
                    not TYPE_WORDS_RE.search(u.text[a:nameoff])
        else:
            spelled = fe.is_cps_function_type(c.type)
        prev = seen.get(c.spelling)
        if prev is None:
            seen[c.spelling] = (spelled, c)
        elif prev[0] != spelled:
            first = prev[1]
            ff, fl, fc = u.loc_of(first)
            which = 'cps' if spelled else 'not cps'
            errs.append(u.diag(c, 'conflicting declarations of `%s`: declared %s here, '
                               'but %s at %s:%d:%d' % (
                                   c.spelling, which, 'cps' if prev[0] else 'not cps',
                                   ff, fl, fc)))
    if errs:
        raise fe.Diags(errs)
