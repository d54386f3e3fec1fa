"""gdb support for CPC programs: CPC threads and their continuations.

Loaded automatically for a program linked with the CPC runtime (its
.debug_gdb_scripts section names this file; gdb needs this directory in its
auto-load safe-path, unless it is installed under gdb's data directory's
auto-load/, which gdb trusts), or by hand with `source tools/gdb/cpc-gdb.py`.

The extension is the package cpcgdb beside this file (cpcgdb/__init__.py
lists its commands and modules); this script puts its directory on Python's
path and registers the package's commands, once however often it is loaded.
"""
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
if _here not in sys.path:
    sys.path.insert(0, _here)

from cpcgdb import register    # noqa: E402  (once the directory is on the path)

register.register()
