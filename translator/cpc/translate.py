"""The pipeline: CPC source text in, C source text out.

prepare (macros, names) -> normalize (hoisting) -> boxing -> split / lift /
cpsconv (emission).  Each step but the last maps CPC text to CPC text and
the result is parsed again by Clang, so every pass sees a plain AST;
`#line` directives keep locations on the original file.
"""
import re

from . import frontend as fe
from . import analysis as an
from . import prepare
from . import normalize
from . import boxing
from . import cpsconv
from . import spawn
from . import typecheck
from . import linked
from . import headers
from . import rewrite as rw

K = fe.K


def cps_spelling_re(u):
    """`cps`, or an object-like macro that stands for it (QEMU's
    `#define coroutine_fn cps`, also through other such macros)."""
    u.macro_ranges()
    bodies = {}
    for name, d in u._macro_defs.items():
        toks = [t.spelling for t in d.get_tokens()]
        if len(toks) == 2 and toks[0] == name:
            bodies[name] = toks[1]
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
                    fe.is_cps_function_type(c.type) and \
                    not re.search(rb'\b(int|void|char|long|short|float|double|unsigned|signed|struct|union|enum)\b', u.text[a:nameoff])
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


NESTED_MSG = 'function definition is not allowed here'


def parse(text, path, args):
    try:
        return fe.parse(text, path, args)
    except fe.Diags as e:
        for d in e.diags:
            if NESTED_MSG in d.msg:
                d.msg = ('nested function definitions are not supported in CPC; '
                         'move the function to file scope')
        raise


def step(u, edits, args):
    if not edits:
        return u
    text = rw.apply(u.text, edits)
    return parse(text, u.path, args)


def inline_headers(u, args, info):
    """Inline the headers that define cps functions (headers.py), one
    level per round; their paths go to info['headers'] (make dependencies)."""
    inlined = set()
    names = []
    for _ in range(64):
        edits = headers.inline(u, inlined)
        if not edits:
            break
        for (a, b, t) in edits:
            m = re.match(r'#line 1 "((?:[^"\\]|\\.)*)"\n', t)
            if m:
                names.append(m.group(1).replace('\\"', '"').replace('\\\\', '\\'))
        u = step(u, edits, args)
    else:
        raise fe.Diags([fe.Diag('headers defining cps functions include each other too '
                                'deeply to be inlined', u.path, 1, 1)])
    if info is not None:
        info.setdefault('headers', []).extend(n for n in names if n not in info.get('headers', []))
    return u


def translate(text, path, args=(), stop_after=None, dataflow='lifting', info=None):
    """Translate CPC `text` (bytes) of file `path`; returns C text.
    stop_after in (None, 'prepare', 'normalize', 'boxing') returns the CPC
    text after that pass (for tests and --save-temps debugging).  With
    dataflow='environments' every variable live across a cps call stays in
    the function's heap environment (eCPC's variant) instead of being lifted
    into frames.  `info` (a dict), when given, receives 'headers': the
    headers inlined because they define cps functions."""
    args = list(args)
    u = parse(text, path, args)
    u = inline_headers(u, args, info)
    check_consistency(u)
    typecheck.check(u)
    u = step(u, prepare.expand_macros(u), args)
    for _ in range(64):          # nested spawns: one level per round
        edits = spawn.outline(u)
        if not edits:
            break
        u = step(u, edits, args)
    u = step(u, linked.link(u), args)
    u = step(u, prepare.rename_shadows(u), args)
    if stop_after == 'prepare':
        return u.text.decode('utf-8', 'surrogateescape')
    u = step(u, normalize.normalize(u), args)
    if stop_after == 'normalize':
        return u.text.decode('utf-8', 'surrogateescape')
    u = step(u, boxing.box(u, environments=(dataflow == 'environments')), args)
    if stop_after == 'boxing':
        return u.text.decode('utf-8', 'surrogateescape')
    return cpsconv.emit(u)
