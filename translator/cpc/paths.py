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


# LINK_DIRS: where cpcc's links look for CPC's libraries (the runtime, the
# adapters libcpc_ev.a and libcpc_uv.a), after the user's own -L.
# RPATH_FLAGS: what makes a program find LIB_DIR's libcpc.so at run time.
if installed is not None:
    INCLUDE_DIR = installed.INCLUDEDIR
    LIB_DIR = installed.LIBDIR
    VERSION = installed.VERSION
    LINK_DIRS = [LIB_DIR]
    RPATH_FLAGS = getattr(installed, 'LINK_RPATH', '').split()
else:
    INCLUDE_DIR = os.path.join(CHECKOUT, 'runtime', 'include')
    LIB_DIR = os.path.join(CHECKOUT, 'build', 'runtime')
    VERSION = checkout_version()
    LINK_DIRS = [LIB_DIR, os.path.join(CHECKOUT, 'build', 'embed')]
    RPATH_FLAGS = ['-Wl,-rpath,' + LIB_DIR]
