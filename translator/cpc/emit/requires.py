"""What the emitter requires of its input beyond normal form and boxing
(which their passes check): every spawn is a call of a cps function (its
arguments are evaluated in the spawner, into the thread's arguments), and the
variables a function's frame holds have distinct names (the frame is one
struct whose fields are named after them; temporaries that share a name but
never live across a call are fine)."""
from ..analysis.cfg import function_graph
from ..analysis.func import cps_bodies, func
from ..analysis.syntax import K, is_cps_call, spawn_body, strip_casts
from .split import split
from .lift import Lifting


def check(u):
    out = []
    for c in u.function_defs():
        f = func(u, c)
        for sp in f.spawns:
            call = strip_casts(spawn_body(sp))
            if call.kind != K.CALL_EXPR or not is_cps_call(call):
                out.append(u.diag(sp, 'a spawned statement of `%s` is not a call of a cps '
                                  'function' % f.name))
    for f in cps_bodies(u, with_calls=True):
        cfg = function_graph(f)
        lift = Lifting(f, cfg)
        held = {}
        for site in split(f, cfg):
            for v in lift.frame_vars(site):
                other = held.setdefault(v.name, v)
                if other.key != v.key:
                    out.append(u.diag(v.cursor, 'two variables of the frame of `%s` are named '
                                      '`%s`' % (f.name, v.name)))
    return out
