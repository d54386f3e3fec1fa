"""api_symbols.py INCLUDE_DIR [--version-script]

Prints the linker names of the public API: every function and variable with
external linkage that the headers INCLUDE_DIR/cpc/*.h declare, one a line,
sorted (not a declaration with an asm label: the header's name for another
library's symbol, such as cpc__aligned_alloc for the C library's aligned_alloc).  A cps function `cps T f(...)` (front-end mode) is the C symbol
f__cps; its C-mode shadow, a native prototype `T f(...)` that nothing
defines, is not part of the API.  With --version-script, prints a GNU ld
version script exporting exactly those names (libcpc.so is linked with it).

The list is read from the headers with Clang, in both modes the headers have
(front-end: the language; C: the ABI, with and without CPC_DEBUG), so it
cannot drift from them.
"""
import os
import sys

import clang.cindex as ci

from cpc import frontend as fe
from cpc.clang_types import function_type_of, is_cps_function_type
from cpc.libclang import lib

EXTERN_KINDS = (ci.CursorKind.FUNCTION_DECL, ci.CursorKind.VAR_DECL)
# Headers of the libraries beside libcpc: the event-loop adapters
# (libcpc_ev.a, libcpc_uv.a), which their own libraries define.
OTHER_LIBRARY_HEADERS = {'cpc_ev.h', 'cpc_uv.h'}


def declared(include_dir, frontend_mode, debug=False):
    """{name: is_cps} for the external declarations of the public headers."""
    headers = sorted(h for h in os.listdir(os.path.join(include_dir, 'cpc'))
                     if h.endswith('.h') and h not in OTHER_LIBRARY_HEADERS)
    text = ''.join('#include <cpc/%s>\n' % h for h in headers)
    args = ['-I' + include_dir] + (['-DCPC_DEBUG'] if debug else [])
    if frontend_mode:
        fe.RUNTIME_INCLUDE = include_dir    # these headers, not the checkout's
        unit = fe.parse(text, 'api_symbols.cpc', args)
        tu = unit.tu
    else:
        lib()
        rd = fe.resource_dir()
        flags = ['-x', 'c', '-std=gnu11'] + args + (['-resource-dir', rd] if rd else [])
        tu = ci.Index.create().parse('api_symbols.c', args=flags,
                                     unsaved_files=[('api_symbols.c', text)])
        errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
        if errors:
            sys.exit('api_symbols: %s' % errors[0])
    inc = os.path.realpath(os.path.join(include_dir, 'cpc'))
    out = {}
    for c in tu.cursor.get_children():
        if c.kind not in EXTERN_KINDS or c.location.file is None:
            continue
        path = os.path.realpath(c.location.file.name)
        if os.path.dirname(path) != inc or os.path.basename(path) in OTHER_LIBRARY_HEADERS:
            continue
        if c.linkage != ci.LinkageKind.EXTERNAL or c.spelling.startswith('__cpc_'):
            continue
        if c.kind == ci.CursorKind.FUNCTION_DECL and c.is_definition():
            continue    # static inline helpers have internal linkage anyway
        if any(k.kind == ci.CursorKind.ASM_LABEL_ATTR for k in c.get_children()):
            continue    # another library's symbol under a name of the header's
        is_cps = (c.kind == ci.CursorKind.FUNCTION_DECL and
                  is_cps_function_type(function_type_of(c.type)))
        out[c.spelling] = is_cps
    return out


def api_symbols(include_dir):
    language = declared(include_dir, True)
    # C mode under both layouts: each declares its own link-time marker
    abi = {**declared(include_dir, False), **declared(include_dir, False, debug=True)}
    names = {n + '__cps' if cps else n for n, cps in language.items()}
    names |= {n for n in abi if not language.get(n)}
    return sorted(names)


def main(argv):
    if len(argv) not in (2, 3) or (len(argv) == 3 and argv[2] != '--version-script'):
        sys.exit(__doc__.strip().splitlines()[0])
    names = api_symbols(argv[1])
    if len(argv) == 3:
        print('/* The exported symbols of libcpc.so: the public headers\' API. */')
        print('{\n  global:')
        for n in names:
            print('    %s;' % n)
        print('  local:\n    *;\n};')
    else:
        print('\n'.join(names))


if __name__ == '__main__':
    main(sys.argv)
