"""Texts and facts of types written once per type and file: a large
function declares, stores and compares the same few types at thousands of
call sites, and a file's functions the same ones again.  A memo is a dict
kept by the emitter for one unit; a type's key is its bytes (its kind and
libclang's pointers: the same type of the same parse, the same bytes)."""
import clang.cindex as ci

from .. import ctype

# (where a memo's declaration puts the name: no type's text holds it)
NAME_SLOT = '\0'


def of_type(memo, fn, t, *args):
    """fn(t, *args), a text or a fact that depends on type t alone (and
    args), once per type in `memo` (t a libclang type; anything else, a
    parameter's decayed type, is asked each time)."""
    if not isinstance(t, ci.Type):
        return fn(t, *args)
    key = (fn, bytes(t)) + args
    try:
        return memo[key]
    except KeyError:
        r = memo[key] = fn(t, *args)
        return r


def declared(memo, fn, t, name, *args):
    """fn(t, name, *args), a declaration of `name` (ctype.declare,
    declare_field...), written once per type in `memo` with the name in its
    slot: each variable of a type has its own name."""
    return of_type(memo, fn, t, NAME_SLOT, *args).replace(NAME_SLOT, name)


def same_type(memo, a, b):
    """ctype.same_type(a, b), once per pair of types in `memo`."""
    key = ('same', bytes(a), bytes(b))
    try:
        return memo[key]
    except KeyError:
        r = memo[key] = ctype.same_type(a, b)
        return r
