"""Running one pass of the pipeline alone, on a small CPC source."""
import contextlib
import os
import re
import shutil

from cpc.analysis.func import Func, func
from cpc import frontend as fe
from cpc import paths
from cpc import pipeline

HDR = '#include <cpc/cpc_runtime.h>\n'
PATH = 't.cpc'


def before(name, src, dataflow='lifting', path=PATH, args=()):
    """(unit, context) that pass `name` receives for HDR + src."""
    return pipeline.run_until(name, (HDR + src).encode(), path, args, dataflow)


def apply(name, u, ctx):
    """Pass `name` alone (to its fixed point when it has one)."""
    return pipeline.run_pass(pipeline.find(name), u, ctx)


def check(name, u, ctx):
    """The messages of pass `name`'s invariant check on unit u."""
    return [d.msg for d in pipeline.find(name).check(u, ctx)]


def stage(name, src, dataflow='lifting', path=PATH, args=()):
    """The pipeline up to the pass before `name`, then `name` alone, then its
    check (which must hold); returns the CPC text after HDR."""
    u, ctx = before(name, src, dataflow, path, args)
    u = apply(name, u, ctx)
    p = pipeline.find(name)
    if p.check is not None:
        assert check(name, u, ctx) == []
    return after_header(pipeline.text_of(u))


def after_header(text):
    assert text.startswith(HDR), text[:200]
    return text[len(HDR):]


def emit(src, dataflow='lifting', path=PATH, args=()):
    """The whole translation of HDR + src, with every invariant checked."""
    return pipeline.translate((HDR + src).encode(), path, args, dataflow=dataflow,
                              check_invariants=True)


def funcs(src):
    u = fe.parse((HDR + src).encode(), PATH)
    return u, {c.spelling: Func(u, c) for c in u.function_defs()}


def emitter_input(src, dataflow='lifting'):
    """(unit, {name: Func}) of what the emitter receives for HDR + src (every
    pass run)."""
    u, _ = before('emit', src, dataflow)
    return u, {c.spelling: func(u, c) for c in u.function_defs()}


def without_line_directives(text):
    return re.sub(r'#line.*\n', '', text)


# --------------------------------------------------------------------------
# Expected files: expected/PASS/BEHAVIOUR.cpc is an input (after HDR) of the
# pass named PASS in the pipeline, and next to it its exact result:
# BEHAVIOUR.out, the CPC text after that pass (the pipeline stopped after it,
# every invariant checked on the way), or for `emit` the generated C; or
# BEHAVIOUR.err, the diagnostics that pass reports (the stage before it
# accepts the program).  A source that starts with `/* dataflow:
# environments */` is translated with that scheme.  The input is t.cpc in the
# case's directory, where the headers it includes are.  The cases name
# passes, never modules, so they stay where they are when a pass moves to
# another module.
#
# CPC_UPDATE_EXPECTED=1 rewrites the expected files from today's translator;
# a case whose file it changed (or created) fails with "expected output
# updated", so that an update never counts as a pass: read the diff, then run
# again without it.

EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'expected')


def expected_passes():
    """The passes that have expected cases (directory names)."""
    return sorted(d for d in os.listdir(EXPECTED) if os.path.isdir(os.path.join(EXPECTED, d)))


def expected_cases(name, root=EXPECTED):
    d = os.path.join(root, name)
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.cpc'))


def all_expected_cases(root=EXPECTED):
    return [c for name in expected_passes() for c in expected_cases(name, root)]


def case_id(path):
    """PASS/BEHAVIOUR of an expected case."""
    return '%s/%s' % (os.path.basename(os.path.dirname(path)),
                      os.path.basename(path)[:-len('.cpc')])


CC = [shutil.which('gcc') or 'gcc', '-I', paths.INCLUDE_DIR]
DATAFLOW_RE = re.compile(r'/\* dataflow: (\w+) \*/')


def stop_after(name, src, path=PATH):
    """The text after pass `name` of HDR + src (the whole translation for
    `emit`), every invariant checked, compiled for gcc as cpcc does; a
    source that starts with `/* dataflow: environments */` is translated
    with that data-flow scheme."""
    text = (HDR + src).encode()
    m = DATAFLOW_RE.match(src)
    dataflow = m.group(1) if m else 'lifting'
    if name == 'emit':
        return pipeline.translate(text, path, check_invariants=True, cc=CC, dataflow=dataflow)
    return after_header(pipeline.translate(text, path, stop_after=name, check_invariants=True,
                                           cc=CC, dataflow=dataflow))


def stage_before(name):
    """The stage that runs before pass `name` (None for the first)."""
    names = pipeline.stage_names() + ['emit']
    i = names.index(name)
    return names[i - 1] if i else None


def pass_result(name, src, path=PATH):
    """('out', text after pass `name`) or ('err', its diagnostics, one a line)."""
    try:
        return 'out', stop_after(name, src, path)
    except fe.Diags as e:
        prev = stage_before(name)
        if prev is not None:
            stop_after(prev, src, path)     # raises when an earlier stage rejects it
        return 'err', ''.join(d.format() + '\n' for d in e.diags)


class ExpectedUpdated(AssertionError):
    """An expected file was rewritten: the test did not pass."""


def assert_expected(case, update=None):
    """The result of the pass named by case's directory on input file `case`
    equals its .out (or .err) file.  With `update` (default: the environment
    has CPC_UPDATE_EXPECTED), a differing or missing file is written first
    and the case fails with ExpectedUpdated."""
    if update is None:
        update = bool(os.environ.get('CPC_UPDATE_EXPECTED'))
    name = os.path.basename(os.path.dirname(case))
    with open(case) as fh:
        src = fh.read()
    with contextlib.chdir(os.path.dirname(case)):     # its headers: `#include "NAME.h"`
        kind, got = pass_result(name, src)
    base = case[:-len('.cpc')]
    want_path, other = base + '.' + kind, base + ('.err' if kind == 'out' else '.out')
    want = None
    if os.path.exists(want_path):
        with open(want_path) as fh:
            want = fh.read()
    if update and (want != got or os.path.exists(other)):
        with open(want_path, 'w') as fh:
            fh.write(got)
        if os.path.exists(other):
            os.remove(other)
        raise ExpectedUpdated('expected output updated: %s (read the diff, then run again '
                              'without CPC_UPDATE_EXPECTED)' % want_path)
    assert want is not None, '%s: no %s (the pass gave %s); CPC_UPDATE_EXPECTED=1 writes it' % (
        case, want_path, 'diagnostics' if kind == 'err' else 'output')
    assert got == want, 'result of pass %s on %s differs from %s' % (name, case, want_path)
