"""Where cpcc finds the runtime's headers and libraries.

Run from a checkout, they are runtime/include and build/runtime (which cpcc
builds with make on first use).  An installed cpcc has a module
cpc/installed.py, written by `make install`, that names the installation's
directories; nothing is built then.
"""
import os

try:
    from . import installed
except ImportError:
    installed = None

CHECKOUT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))



def checkout_version():
    """CPC_VERSION of runtime/runtime.mk."""
    try:
        with open(os.path.join(CHECKOUT, 'runtime', 'runtime.mk')) as f:
            for line in f:
                name, _, value = line.partition(':=')
                if name.strip() == 'CPC_VERSION':
                    return value.strip()
    except OSError:
        pass
    return 'unknown'


if installed is not None:
    INCLUDE_DIR = installed.INCLUDEDIR
    LIB_DIR = installed.LIBDIR
    VERSION = installed.VERSION
else:
    INCLUDE_DIR = os.path.join(CHECKOUT, 'runtime', 'include')
    LIB_DIR = os.path.join(CHECKOUT, 'build', 'runtime')
    VERSION = checkout_version()
