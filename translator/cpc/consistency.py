"""Consistency check (after header inlining): every declaration of a
function agrees on whether it is cps."""
import re

from . import frontend as fe

K = fe.K

# a declaration that spells one of these before the name spells its type itself
TYPE_WORDS_RE = re.compile(
    rb'\b(int|void|char|long|short|float|double|unsigned|signed|struct|union|enum)\b')


def check_consistency(u):
    """Every declaration of a function agrees on cps-ness (Clang keeps the
    first declaration's type, so the spelling is checked)."""
    seen = {}
    errs = []
    for c in u.top():
        if c.kind != K.FUNCTION_DECL:
            continue
        if u.in_main_file(c):
            a = c.extent.start.offset
            nameoff = c.location.offset
            spelled = re.search(rb'\bcps\b', u.text[a:nameoff]) is not None
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
