"""A function re-printed from its macro-expanded form, with its lines
mapped back to the source.

Clang's pretty printer renders a whole function (libclang prints
declarations only, not statements) with a layout of its own: one block item
per line, indented four spaces per enclosing block.  `function(u, c)` puts a
`#line` directive before the line of each block item, so that gcc's messages
and gdb's lines in the re-printed function name the line where the item is
written.  Items are matched to the rendering in order, each to the next
line indented as deep as the item is nested; an item the rendering does not
show where expected keeps the line numbering of what precedes it.
"""
from . import frontend as fe
from . import rewrite as rw

K = fe.K
INDENT = 4


def block_items(body):
    """(depth, item) of every block item under the compound statement
    `body`, in source order; depth counts the compound statements around
    the item (1 for the body's own items)."""
    out = []
    stack = [(body, 0, False)]
    while stack:
        n, depth, is_item = stack.pop()
        if is_item:
            out.append((depth, n))
        kids = fe.kids(n)
        if n.kind == K.COMPOUND_STMT:
            depth += 1
        stack.extend((k, depth, n.kind == K.COMPOUND_STMT) for k in reversed(kids))
    return out


def function(u, c):
    """The macro-expanded text of function definition c, with `#line`
    directives before its block items (see the module's doc)."""
    text = fe.pretty(c)
    body = [k for k in fe.kids(c) if k.kind == K.COMPOUND_STMT]
    if not body:
        return text
    lines = text.split('\n')
    marks = {}
    pos = 1                       # line 0 is the function's head
    for depth, item in block_items(body[-1]):
        want = ' ' * (INDENT * depth)
        for i in range(pos, len(lines)):
            ln = lines[i]
            if ln.startswith(want) and ln[len(want):len(want) + 1] not in (' ', '}', ''):
                marks[i] = rw.line_directive(u, item.extent.start.offset)
                pos = i + 1
                break
    out = []
    for i, ln in enumerate(lines):
        if i in marks:
            out.append(marks[i])
        out.append(ln)
    return '\n'.join(out)
