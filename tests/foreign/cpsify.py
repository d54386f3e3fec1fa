#!/usr/bin/env python3
"""cpsify: turn a C program written elsewhere into a CPC program in which every function that
can be cps is cps (differential testing of cpcc on other people's programs: gcc's torture
tests, c-testsuite, llvm-test-suite's single-source programs, and, with transform_program,
programs of several files such as its MultiSource ones).

Invariant: the CPC program computes what the C program computes, as far as C defines it:
  * `cps` is added to the definition and every prototype of each function the program defines
    that can be cps (tests/csmith/cpcsmith.py's choice): not variadic ones, not those whose
    address is taken, not constructors, destructors or cleanups, not those a header
    declares too (a program's own `rand`), not those a file calls without declaring them,
    not those with a declaration where `cps` has no place (`EXTERN(FILE *) f(void)`, out of
    a macro), and, transitively, not those a native function calls; functions the program
    only declares (the C library's) stay native;
  * in a program of several files, its own headers get `cps` too;
  * `main` becomes `static cps int cpsify_main(...)`, with its parameters, run by a thread that
    a new `main` spawns; the new `main` returns its status, and reaching the end of the old
    one returns 0, as it does in `main` (C11 5.1.2.2.3);
  * the program's text is otherwise untouched: the edits only insert, at offsets libclang
    gives, and the file is read and written as bytes.

Old C is accepted as gcc 12 accepts it (implicit int, implicit declarations).  A program that
uses the name `main` otherwise than for its definition is refused (CpsifyError), as is one
that libclang cannot parse.

Usage: cpsify.py IN.c OUT.cpc
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'csmith'))
import cpcsmith  # noqa: E402

# what gcc 12 accepts with a warning and Clang refuses by default
LENIENT = ['-Wno-error=implicit-int', '-Wno-error=implicit-function-declaration',
           '-Wno-error=int-conversion', '-Wno-error=incompatible-pointer-types',
           '-Wno-error=incompatible-function-pointer-types', '-Wno-error=return-type']

PROLOGUE = b'#include <cpc/cpc_runtime.h>\n'

DRIVER = b'''
static int cpsify_status;
static cps void cpsify_run(void) { cpsify_status = cpsify_main(); }
int main(void) { cpc_spawn cpsify_run(); cpc_main_loop(); return cpsify_status; }
'''

# (main's own parameters: argc, argv and envp, or fewer)
DRIVER_ARGS = b'''
static int cpsify_status, cpsify_argc;
static char **cpsify_argv, **cpsify_envp;
static cps void cpsify_run(void) { cpsify_status = cpsify_main(%s); }
int main(int argc, char **argv, char **envp)
{
    cpsify_argc = argc;
    cpsify_argv = argv;
    cpsify_envp = envp;
    cpc_spawn cpsify_run();
    cpc_main_loop();
    return cpsify_status;
}
'''
MAIN_ARGS = [b'cpsify_argc', b'cpsify_argv', b'cpsify_envp']


CLEANUP_RE = re.compile(rb'\b(?:__)?cleanup(?:__)?\s*\(\s*([A-Za-z_$][\w$]*)\s*\)')


class CpsifyError(Exception):
    pass


def in_directive(text, off):
    """Whether offset `off` of `text` lies in a preprocessor directive (a macro's
    definition, over its continued lines)."""
    a = text.rfind(b'\n', 0, off) + 1
    while a > 1 and text[a - 2:a] == b'\\\n':
        a = text.rfind(b'\n', 0, a - 1) + 1
    return text[a:off].lstrip().startswith(b'#')


def cps_offset(text, first, start, at, name):
    """Where `cps ` goes in a declaration of `name` that starts at offset
    `first`, whose specifiers after the storage class start at `start` and
    whose name is at `at`: before those specifiers, or, when the declaration
    starts with a macro (libclang then gives the offset of the macro's
    definition), right before the name (`REAL cps f(...)`), which is only
    right when no `*` comes before it."""
    line = text[text.rfind(b'\n', 0, first) + 1:first] if first is not None else b'#'
    if first is not None and first <= start <= at and not line.lstrip().startswith(b'#') and \
            b'\n#' not in text[first:at].replace(b' ', b'').replace(b'\t', b'') and \
            not in_directive(text, start):
        return start
    if text[at:at + len(name)] == name.encode():
        before = text[:at].rstrip()
        if before and (before[-1:].isalnum() or before[-1:] == b'_'):
            return at
    raise CpsifyError('the declaration of %s comes out of a macro' % name)


def transform(text):
    """C program (bytes) -> CPC program (bytes)."""
    return transform_program({'prog.c': text})['prog.c']


def transform_program(sources, own_file=None, args=()):
    """A program of one or more files -> its CPC version.  `sources` maps the path of each of
    its .c files to its text (bytes); `own_file(path)` says which headers are the program's
    (their declarations get `cps` too); `args` go to the parser (-I, -D).  Returns a map from
    path to new text: every source, and each header of the program that changed."""
    try:
        return _transform_program(sources, own_file, args)
    except UnicodeDecodeError:
        # (cpcc reads such files; the Python binding of libclang cannot spell their tokens)
        raise CpsifyError('a token is not UTF-8')


def _transform_program(sources, own_file, args):
    texts = dict(sources)

    def text_of(path):
        if path not in texts:
            with open(path, 'rb') as f:
                texts[path] = f.read()
        return texts[path]

    analyses = {}
    for path, text in sources.items():
        try:
            analyses[path] = cpcsmith.analyse(text, path, LENIENT + list(args), own_file)
        except RuntimeError as e:
            raise CpsifyError(str(e))
    funcs = merge(analyses)
    if 'main' not in funcs or not funcs['main']['defined']:
        raise CpsifyError('no main')
    if funcs['main']['addr_taken'] or any('main' in f['calls'] for f in funcs.values()):
        raise CpsifyError("main is used otherwise than as the program's entry")
    # C calls a variable's cleanup function natively
    cleanups = set()
    for path in set(texts) | set(p for f in funcs.values() for p in f['files']):
        cleanups |= set(m.group(1).decode() for m in CLEANUP_RE.finditer(text_of(path)))
    for name, f in funcs.items():
        if name in cleanups:
            f['addr_taken'] = True
        spelled = set(t.spelling for toks in f['decls'] for t in toks)
        variadic = '...' in spelled
        # the C runtime calls constructors and destructors natively
        if spelled & {'constructor', 'destructor', '__constructor__', '__destructor__'}:
            f['addr_taken'] = True
        # (a function a system header declares too, `int rand(void)`, keeps
        # that declaration's type; one a file calls without declaring it is
        # native there)
        if variadic or not f['defined'] or f['elsewhere'] or f['undeclared_call']:
            f['addr_taken'] = True         # stays native, and so do its callees
    while True:
        cps = cpcsmith.choose_cps(funcs, False, set())
        edits, stuck = cps_edits(funcs, cps, text_of)
        if not stuck:
            break
        for name in stuck:                 # (see cps_edits)
            funcs[name]['addr_taken'] = True
    # falling off the end of main returns 0: say so in the function that replaces it
    main_file = funcs['main']['files'][-1]
    a, b = funcs['main']['extents'][-1]
    edits.setdefault(main_file, []).append((text_of(main_file).rindex(b'}', a, b),
                                           b' return 0; '))
    result = {}
    for path in set(sources) | set(edits):
        text = text_of(path)
        for off, ins in sorted(set(edits.get(path, ())), key=lambda e: e[0], reverse=True):
            text = text[:off] + ins + text[off:]
        if path in sources:
            text = PROLOGUE + text
        result[path] = text
    # the parameters as Clang sees them: a directive may hide some (`#if unix ,char **env`)
    n = funcs['main']['params'][-1]
    if n == 0:
        result[main_file] += DRIVER
    else:
        result[main_file] += DRIVER_ARGS % b', '.join(MAIN_ARGS[:n])
    return result


def cps_edits(funcs, cps, text_of):
    """({path: [(offset, text)]}, stuck): the insertions that make the functions of `cps` cps
    and rename main; `stuck` names the functions where `cps` has no place to go."""
    edits, stuck = {}, set()
    # declarators that share their specifiers take `cps` together: all of them must be
    # functions made cps (not `double sqrt(), xrand();`, not `node *v, *add_vert();`)
    together = {}
    for name, f in funcs.items():
        for toks, path in zip(f['decls'], f['files']):
            if toks:
                together.setdefault((path, toks[0].extent.start.offset), set()).add(name)
    for (path, start), names in together.items():
        if names & cps and (not names <= cps or
                            declarators(text_of(path), start) > len(names)):
            stuck |= names & cps
    for name, f in funcs.items():
        if name != 'main' and name not in cps:
            continue
        for toks, at, path, body in zip(f['decls'], f['names'], f['files'], f['bodies']):
            if not toks:
                # (libclang gives no tokens for a declaration that starts in a
                # macro of another file: `EXTERN(int) f JPP((int));`)
                if name != 'main':
                    stuck.add(name)
                continue
            text = text_of(path)
            out = edits.setdefault(path, [])
            i = 0
            while i < len(toks) and toks[i].spelling in cpcsmith.STORAGE:
                i += 1
            if name != 'main':
                # (a declaration that starts with a macro starts in another file)
                first = toks[0].extent.start
                first = first.offset if first.file and first.file.name == path else None
                try:
                    out.append((cps_offset(text, first, toks[i].extent.start.offset, at,
                                           name), b'cps '))
                except CpsifyError:
                    if body and text[at:at + len(name)] != name.encode():
                        # a definition out of a macro: what it calls is not seen
                        raise
                    stuck.add(name)
                continue
            name_tok = next(t for t in toks if t.spelling == 'main')
            if name_tok is toks[0]:                 # `main()`: implicit int
                out.append((name_tok.extent.start.offset, b'static cps int cpsify_'))
            else:
                # (`extern int main ARGS((...));`, Burg: the function is static now)
                j = 0
                while toks[j] is not name_tok and toks[j].spelling in ('extern', 'static'):
                    out.append((toks[j].extent.start.offset, b'/* '))
                    out.append((toks[j].extent.end.offset, b' */'))
                    j += 1
                out.append((toks[j].extent.start.offset, b'static cps '))
                out.append((name_tok.extent.start.offset, b'cpsify_'))
    return edits, stuck


def declarators(text, start):
    """How many declarators the declaration at offset `start` of `text` has: one more than
    its commas outside brackets, up to its `;` or the `{` of a body."""
    depth, n, i = 0, 1, start
    while i < len(text):
        c = text[i:i + 1]
        if c in b'([':
            depth += 1
        elif c in b')]':
            depth -= 1
        elif depth == 0 and c in b';{':
            return n
        elif depth == 0 and c == b',':
            n += 1
        elif c in b'"\'':
            j = i + 1
            while j < len(text) and text[j:j + 1] != c:
                j += 2 if text[j:j + 1] == b'\\' else 1
            i = j
        i += 1
    return n


def merge(analyses):
    """One view of a program's functions from the analyses of its files (cpcsmith.analyse):
    a function is defined, calls, or has its address taken if it does in any file (functions
    are told apart by name only: static ones of one name in two files are merged, which can
    only keep more of them native); a declaration in a header shows in the analysis of every
    file that includes it and counts once.  'undeclared_call': some file calls it without a
    declaration (C90's implicit one: a native call)."""
    def blank():
        return {'decls': [], 'names': [], 'files': [], 'extents': [], 'bodies': [],
                'params': [], 'defined': False,
                'calls': set(), 'addr_taken': False, 'elsewhere': False,
                'undeclared_call': False}

    funcs = {}
    seen = set()
    for path, one in analyses.items():
        for name, f in one.items():
            m = funcs.setdefault(name, blank())
            for toks, at, where, extent, body, params in zip(
                    f['decls'], f['names'], f['files'], f['extents'], f['bodies'], f['params']):
                if (where, at) in seen:
                    continue
                seen.add((where, at))
                m['decls'].append(toks)
                m['names'].append(at)
                m['files'].append(where)
                m['extents'].append(extent)
                m['bodies'].append(body)
                m['params'].append(params)
            m['defined'] |= f['defined']
            m['calls'] |= f['calls']
            m['addr_taken'] |= f['addr_taken']
            m['elsewhere'] |= f['elsewhere']
            m['undeclared_call'] |= f.get('implicit', False)
        for f in one.values():
            for callee in f['calls']:
                if not one.get(callee, {}).get('decls'):
                    funcs.setdefault(callee, blank())['undeclared_call'] = True
    return funcs


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], 'rb') as f:
        text = f.read()
    try:
        out = transform(text)
    except CpsifyError as e:
        print('cpsify: %s: %s' % (argv[1], e), file=sys.stderr)
        return 1
    with open(argv[2], 'wb') as f:
        f.write(out)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
