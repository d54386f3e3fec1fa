"""Splitting: resume points and tail calls.

Invariant: on a normalised, boxed cps function, `split(func, cfg)` numbers
the cps call sites that need a resume point (1, 2, ... in source order) and
marks the others as tail calls: `return g(...)` where g's result type is the
function's (or both are void), and, in a void function, a call statement
after which control reaches the function's end without doing anything.  A
tail call pushes no frame, so a tail-recursive cps loop runs in constant
memory.  Control flow between resume points stays the user's C: the body is
re-entered at a label after the call (`f__resumed_N`) through a dispatch
switch, since C allows jumping into blocks.
"""
from ..clang_types import function_type_of
from ..analysis.syntax import callee_of
from .. import ctype


def reaches_exit_directly(cfg, node):
    seen = set()
    cur = node
    while True:
        if len(cur.succ) != 1:
            return False
        nxt = cur.succ[0]
        if nxt is cfg.exit:
            return True
        if nxt.kind != 'nop' or nxt.id in seen:
            return False
        seen.add(nxt.id)
        cur = nxt


def callee_result(call):
    ft = function_type_of(callee_of(call).type)
    return ft.get_result() if ft is not None else call.type


def split(func, cfg):
    rt = func.c.type.get_result()
    void = ctype.is_void(rt)
    n = 0
    for site in sorted(cfg.sites, key=lambda s: s.stmt.extent.start.offset):
        tail = False
        if site.form == 'return':
            cr = callee_result(site.call)
            tail = (void and ctype.is_void(cr)) or (not void and not ctype.is_void(cr)
                                                   and ctype.same_type(cr, rt))
        elif site.form == 'expr' and void:
            tail = reaches_exit_directly(cfg, site.resume_node)
        site.tail = tail
        if not tail:
            n += 1
            site.index = n
    return [s for s in cfg.sites if not s.tail]
