"""The nodes of a function body that the emitter looks at more than once,
found in one walk of the body: the cps functions used as values
(declarations.value_edits), whether the body can be cut in chunks
(chunks.plan) and its returns (functions.return_edits) each went through the
whole body, a large function's hundreds of thousands of nodes."""
from .. import frontend as fe
from ..analysis.syntax import walk
from ..cursors import UO, unop

K = fe.K

JUMPS = frozenset([K.LABEL_STMT, K.GOTO_STMT, K.INDIRECT_GOTO_STMT, K.ADDR_LABEL_EXPR])
ADDR_OF = UO['AddrOf']


class BodyNodes:
    """In the preorder of `walk(root, skip_spawn=False)`: the calls, the
    `&` operators, the references to declarations, the returns, and whether
    a label, a goto or a label's address is among them."""

    def __init__(self, root):
        self.calls, self.addr_of, self.refs, self.returns = [], [], [], []
        self.jump = False
        for n, _ in walk(root, skip_spawn=False):
            k = n.kind
            if k == K.DECL_REF_EXPR:
                self.refs.append(n)
            elif k == K.CALL_EXPR:
                self.calls.append(n)
            elif k == K.UNARY_OPERATOR:
                if unop(n) == ADDR_OF:
                    self.addr_of.append(n)
            elif k == K.RETURN_STMT:
                self.returns.append(n)
            elif k in JUMPS:
                self.jump = True


def body_nodes(root):
    """The BodyNodes of cursor `root`, once per cursor (and parse)."""
    memo = root.memo
    try:
        return memo[_KEY]
    except KeyError:
        r = memo[_KEY] = BodyNodes(root)
        return r


_KEY = 'emit.body_nodes'
