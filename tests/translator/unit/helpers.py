"""Running one pass of the pipeline alone, on a small CPC source."""
import re

from cpc import analysis as an
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
    return u, {c.spelling: an.Func(u, c) for c in u.function_defs()}


def without_line_directives(text):
    return re.sub(r'#line.*\n', '', text)
