"""Running one pass of the pipeline alone, on a small CPC source."""
import os
import re

from cpc.analysis.func import Func
from cpc import frontend as fe
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


def without_line_directives(text):
    return re.sub(r'#line.*\n', '', text)


# --------------------------------------------------------------------------
# Expected files: expected/PASS/NAME.cpc is a pass's input (after HDR), and
# expected/PASS/NAME.out its exact output: the CPC text after the pass (run
# with `stage`), or for the emitter the generated C.  Set
# CPC_UPDATE_EXPECTED=1 to write the .out files from today's translator;
# read the diff before committing it.

EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'expected')


def expected_cases(name):
    d = os.path.join(EXPECTED, name)
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.cpc'))


def case_id(path):
    return os.path.basename(path)[:-len('.cpc')]


def assert_expected(name, case):
    """The output of pass `name` on input file `case` equals its .out file."""
    with open(case) as fh:
        src = fh.read()
    out = emit(src) if name == 'emit' else stage(name, src)
    want_path = case[:-len('.cpc')] + '.out'
    if os.environ.get('CPC_UPDATE_EXPECTED'):
        with open(want_path, 'w') as fh:
            fh.write(out)
    with open(want_path) as fh:
        want = fh.read()
    assert out == want, 'output of %s on %s differs from %s' % (name, case, want_path)
