"""Shared analyses over Clang's AST, one module each: syntax (walking and
reading the tree), attributes, func (a function's variables, cps calls and
references), cfg (control flow graph), dataflow (liveness, possibly
initialised), retain (what must live in the environment), jumps (jumps out
of a statement), pragmas (the packing in effect).  Nothing here changes the
program.
"""
