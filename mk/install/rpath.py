"""rpath.py LIBDIR MODE -- run by `make install`: prints the linker flag
that makes programs find LIBDIR's shared libraries at run time
(-Wl,-rpath,LIBDIR), or nothing when the loader looks there anyway.

MODE: yes (always the flag), no (never), auto: the flag unless LIBDIR is
one of the loader's directories -- its built-in ones and those of
/etc/ld.so.conf, which ldconfig lists (ldconfig runs after an install as
root, so /usr/local/lib is found at once)."""
import os
import subprocess
import sys

BUILTIN = ('/lib', '/usr/lib', '/lib64', '/usr/lib64')


def loader_dirs():
    dirs = set(BUILTIN)
    for tool in ('ldconfig', '/sbin/ldconfig', '/usr/sbin/ldconfig'):
        try:
            out = subprocess.run([tool, '-v', '-N'], capture_output=True, text=True).stdout
        except OSError:
            continue
        dirs.update(line.split(':')[0] for line in out.splitlines() if line.startswith('/'))
        break
    multiarch = subprocess.run(['cc', '-print-multiarch'], capture_output=True,
                               text=True).stdout.strip()
    if multiarch:
        dirs.update(os.path.join(d, multiarch) for d in BUILTIN)
    return {os.path.realpath(d) for d in dirs}


libdir, mode = sys.argv[1], sys.argv[2]
if mode not in ('yes', 'no', 'auto'):
    sys.exit('make install: INSTALL_RPATH=%s: yes, no or auto' % mode)
if mode == 'yes' or (mode == 'auto' and os.path.realpath(libdir) not in loader_dirs()):
    print('-Wl,-rpath,' + libdir)
