"""frontend.py and analysis.Func: what the passes are told about a parse."""
import subprocess
import sys
import os

from helpers import funcs


def test_cps_detected_through_attribute_spelling():
    u, fs = funcs('__attribute__((cps)) void f(void) { cpc_yield(); }\nvoid g(void) {}\n')
    assert fs['f'].is_cps and not fs['g'].is_cps


def test_cps_call_detected_through_pointer():
    u, fs = funcs('typedef cps int fn(int);\ncps int h(fn *p) { return p(1); }\n')
    assert len(fs['h'].cps_calls) == 1


def test_sizeof_operand_is_not_a_call():
    u, fs = funcs('cps int g(void);\ncps int f(void) { return sizeof(g()); }\n')
    assert fs['f'].cps_calls == []


def test_bindings_are_left_unchanged_for_other_users():
    """Importing and using the front-end changes nothing in clang.cindex:
    another user of the bindings in the process sees them as shipped."""
    code = '''
import clang.cindex as ci
before = {c: dict(vars(c)) for c in (ci.Cursor, ci.SourceRange, ci.SourceLocation)}
lib = ci.conf.lib
sig = (lib.clang_getCursorExtent.argtypes, lib.clang_getCursorExtent.restype)
from cpc import frontend as fe
u = fe.parse(b'int f(int x) { return x + 1; }\\n', 't.c')
assert [c.spelling for c in u.function_defs()] == ['f']
fe.binop(list(fe.kids(u.function_defs()[0]))[1])
after = {c: dict(vars(c)) for c in (ci.Cursor, ci.SourceRange, ci.SourceLocation)}
assert before == after, [k for k in before if before[k] != after[k]]
assert not hasattr(lib, 'clang_getCursorBinaryOperatorKind') or \\
    lib.clang_getCursorBinaryOperatorKind.argtypes is None
assert (lib.clang_getCursorExtent.argtypes, lib.clang_getCursorExtent.restype) == sig
root = ci.Index.create().parse('u.c', unsaved_files=[('u.c', 'int g;')]).cursor
assert type(root) is ci.Cursor and type(next(root.get_children())) is ci.Cursor
print('ok')
'''
    top = os.path.join(os.path.dirname(__file__), '..', '..', '..')
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=os.path.join(top, 'translator')))
    assert r.stdout.strip() == 'ok', r.stderr
