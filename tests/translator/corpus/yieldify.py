#!/usr/bin/env python3
"""yieldify: insert `cpc_yield();` at the start of the body of every cps
function of a CPC source, so that every call of a cps function really suspends
and resumes through the scheduler (the `yield` variant of the differential
tests).  A function is cps when its declaration, before the body, has a `cps`
or `CPS` token (the corpus marks functions with the CPS macro).  Positions come
from libclang, parsing the text as plain C (`cps` and `CPS` empty), so any
declarator works; bodies that come out of a macro expansion are left alone.

Usage: yieldify.py IN OUT   (also a module: yieldify(text_bytes) -> bytes)
"""
import os
import re
import sys

CPS_WORD = re.compile(rb'\b(?:cps|CPS)\b')
STDC_PRAGMAS = re.compile(rb'(?:\s*#[ \t]*pragma[ \t]+STDC\b[^\n]*\n)*')
COMMENT = re.compile(rb'/\*.*?\*/|//[^\n]*', re.S)
RESOURCE_DIR_CANDIDATES = ['/usr/lib/llvm-19/lib/clang/19']
HERE = os.path.dirname(os.path.abspath(__file__))


def _parse_args(include_dirs):
    args = ['-x', 'c', '-std=gnu11', '-w', '-DCPC_NATIVE', '-Dcps=', '-DCPS=',
            '-Dcpc_spawn=', '-fno-spell-checking']
    for rd in RESOURCE_DIR_CANDIDATES:
        if os.path.isdir(rd):
            args += ['-resource-dir', rd]
            break
    for d in include_dirs:
        args += ['-I', d]
    return args


def body_offsets(text, filename='prog.c', include_dirs=(HERE,)):
    """Byte offsets after which each cps function body's statements start
    in text (bytes): its `{`, or the `;` of the local label declarations
    (`__label__ a;`) that open it, or the end of the `#pragma STDC` lines
    that follow."""
    import clang.cindex as ci
    index = ci.Index.create()
    tu = index.parse(filename, args=_parse_args(include_dirs),
                     unsaved_files=[(filename, text)], options=0)
    K = ci.CursorKind
    # the text without comments, offsets unchanged
    code = COMMENT.sub(lambda m: re.sub(rb'[^\n]', b' ', m.group(0)), text)
    out = []
    for c in tu.cursor.get_children():
        if c.kind != K.FUNCTION_DECL or not c.is_definition():
            continue
        if c.location.file is None or c.location.file.name != filename:
            continue
        body = [b for b in c.get_children() if b.kind == K.COMPOUND_STMT]
        if not body:
            continue
        start, lbrace = c.extent.start.offset, body[-1].extent.start.offset
        if not (0 <= start < lbrace < len(text)) or text[lbrace:lbrace + 1] != b'{':
            continue
        head = declaration_head(code, start, lbrace)
        returns_function_pointer = re.search(rb'\(\s*\*\s*%s\s*\(' % c.spelling.encode(), head)
        if CPS_WORD.search(head) and not returns_function_pointer:
            # after the GNU local label declarations that open the body
            at = lbrace
            for st in body[-1].get_children():
                if st.kind != K.DECL_STMT or \
                        not text.startswith(b'__label__', st.extent.start.offset):
                    break
                at = text.index(b';', st.extent.end.offset - 1)
            # and after the `#pragma STDC ...` lines that may only open a block
            m = STDC_PRAGMAS.match(text, at + 1)
            out.append(m.end() - 1 if m.end() > at + 1 else at)
    return out


def declaration_head(text, start, lbrace):
    """The text of a definition before its body, with what precedes the extent that
    libclang gives (a `cps` macro that expands to nothing is not in it): back to the end of
    the previous declaration, block or preprocessor line."""
    b = max(text.rfind(b';', 0, start), text.rfind(b'}', 0, start),
            text.rfind(b'\n#', 0, start))
    if b >= 0 and text[b:b + 2] == b'\n#':
        b = text.find(b'\n', b + 1)
    return text[b + 1:lbrace]


def yieldify(text, filename='prog.c', include_dirs=(HERE,)):
    for off in sorted(body_offsets(text, filename, include_dirs), reverse=True):
        text = text[:off + 1] + b' cpc_yield();' + text[off + 1:]
    return text


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], 'rb') as f:
        text = f.read()
    with open(argv[2], 'wb') as f:
        f.write(yieldify(text, os.path.basename(argv[1]),
                         (os.path.dirname(os.path.abspath(argv[1])), HERE)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
