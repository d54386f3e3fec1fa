"""primitives.py: the runtime's primitives with optional arguments."""
from cpc.primitives import PRIMITIVES, signature


def test_signatures_bracket_the_optional_arguments():
    assert [signature(n) for n in sorted(PRIMITIVES)] == [
        'cpc_io_wait(int fd, int direction [, cpc_condvar *c])',
        'cpc_sleep(int sec [, int usec [, cpc_condvar *c]])',
        'cpc_wait(cpc_condvar *c [, int sec [, int usec]])']
