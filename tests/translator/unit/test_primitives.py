"""primitives: the runtime's primitives with optional arguments."""

import os
import re
from cpc import paths
from cpc import primitives
from cpc.primitives import PRIMITIVES, signature


def test_signature_brackets_each_optional_argument():
    assert primitives.signature('cpc_sleep') == \
        'cpc_sleep(int sec [, int usec [, cpc_condvar *c]])'
    assert primitives.signature('cpc_wait') == \
        'cpc_wait(cpc_condvar *c [, int sec [, int usec]])'
    assert primitives.signature('cpc_io_wait') == \
        'cpc_io_wait(int fd, int direction [, cpc_condvar *c])'


def test_required_arguments_come_before_optional_ones():
    for name, args in primitives.PRIMITIVES.items():
        defaults = [d is not None for (_, d, _) in args]
        assert defaults == sorted(defaults), name


def test_every_primitive_is_declared_variadic_by_the_runtime_header():
    with open(os.path.join(paths.INCLUDE_DIR, 'cpc', 'cpc_runtime.h')) as f:
        header = f.read()
    for name, args in primitives.PRIMITIVES.items():
        m = re.search(r'\b%s\s*\(([^)]*)\)' % name, header)
        assert m, name
        assert m.group(1).replace(' ', '').endswith('...'), (name, m.group(1))


def test_signatures_bracket_the_optional_arguments():
    assert [signature(n) for n in sorted(PRIMITIVES)] == [
        'cpc_io_wait(int fd, int direction [, cpc_condvar *c])',
        'cpc_sleep(int sec [, int usec [, cpc_condvar *c]])',
        'cpc_wait(cpc_condvar *c [, int sec [, int usec]])']
