"""Jumps that cross the boundary of a statement: the checks shared by spawn
outlining and linked statements (neither construct can be left or entered
by `goto`, `break`, `continue` or a `case` label)."""
from .. import frontend as fe
from .syntax import LOOP_KINDS, walk
from ..cursors import kids


K = fe.K


def escapes(u, body, what):
    """Diagnostics for jumps out of (or into the middle of) statement `body`:
    break/continue/case/default binding outside it, goto to a label outside
    it.  `what` names the construct in messages."""
    errs = []
    labels = set()
    gotos = []

    def visit(c, loops, switches):
        k = c.kind
        if k == K.CXX_UNARY_EXPR:
            return
        if k == K.BREAK_STMT and loops == 0 and switches == 0:
            errs.append(u.diag(c, '`break` out of %s' % what))
        elif k == K.CONTINUE_STMT and loops == 0:
            errs.append(u.diag(c, '`continue` out of %s' % what))
        elif k in (K.CASE_STMT, K.DEFAULT_STMT) and switches == 0:
            errs.append(u.diag(c, '`%s` label of an enclosing switch inside %s' % (
                'case' if k == K.CASE_STMT else 'default', what)))
        elif k == K.LABEL_STMT:
            labels.add(c.spelling)
        elif k == K.GOTO_STMT:
            ch = kids(c)
            if ch:
                gotos.append((c, ch[0].spelling))
        elif k == K.INDIRECT_GOTO_STMT:
            errs.append(u.diag(c, 'computed `goto` inside %s' % what))
        nl = loops + (1 if k in LOOP_KINDS else 0)
        ns = switches + (1 if k == K.SWITCH_STMT else 0)
        for x in kids(c):
            visit(x, nl, ns)

    visit(body, 0, 0)
    for g, lab in gotos:
        if lab not in labels:
            errs.append(u.diag(g, '`goto %s` out of %s' % (lab, what)))
    return errs, labels


def gotos_into(u, fbody, body, labels, what):
    """Diagnostics for gotos outside `body` to labels inside it."""
    a, b = body.extent.start.offset, body.extent.end.offset
    errs = []
    for n, p in walk(fbody, skip_spawn=False):
        if n.kind == K.GOTO_STMT:
            o = n.extent.start.offset
            if a <= o < b:
                continue
            ch = kids(n)
            if ch and ch[0].spelling in labels:
                errs.append(u.diag(n, '`goto %s` into %s' % (ch[0].spelling, what)))
    return errs
