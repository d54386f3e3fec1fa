"""emit/guard.py: which functions generated for a cps function go without
the stack protector (CPC_UNGUARDED): those whose code holds no stack object
of the user's that a write could run past."""
import os
import re
import subprocess

import pytest

from cpc.emit.guard import holds_stack_objects
from helpers import HDR, emitter_input

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
CPCC = os.path.join(TOP, 'bin', 'cpcc')

DECLS = 'cps int g(int);\nstruct s { int n; int v[2]; };\nint global;\n'


def holds(body, params='int a'):
    _, fs = emitter_input(DECLS + 'cps int f(%s) {\n%s\n}\n' % (params, body))
    return holds_stack_objects(fs['f'])


@pytest.mark.parametrize('body', [
    'int x = g(a); return x + 1;',
    'struct s *p = 0; int *q = &p->v[1]; int x = g(a); return x + *q;',
    'int *p = 0; int *q = &p[a]; int x = g(*q); return x;',
    'int *q = &global; int x = g(*q); return x;',
    # (the translator keeps an array or a variable whose address is taken
    # in the heap when its scope holds a cps call)
    'char b[8]; __builtin_memset(b, a, 8); int x = g(b[a & 7]); return x + b[0];',
    'int y = a; int *p = &y; int x = g(*p); return x + *p;',
])
def test_code_without_an_addressable_stack_object_needs_no_canary(body):
    assert not holds(body)


@pytest.mark.parametrize('body', [
    # in a block without cps calls: these stay in the C function's frame
    'int s = 0; if (a) { char b[8]; __builtin_memset(b, a, 8); s = b[a & 7]; } return g(s);',
    'int s = 0; if (a) { int y = a; int *p = &y; s = *p; } return g(s);',
    'int s = 0; if (a) { struct s t = { 0 }; s = t.n; } return g(s);',
    'int s = 0; if (a) { int *p = (int[]){ a, a }; s = p[1]; } return g(s);',
    'int s = 0; if (a) { int y; __asm__("" : "=m"(y)); s = y; } return g(s);',
])
def test_an_array_an_address_taken_local_a_compound_literal_or_alloca_need_one(body):
    assert holds(body)


def test_a_parameter_holding_an_array_needs_one():
    assert holds('return g(t.n);', 'struct s t')


def guarded_functions(tmp_path, src, protector='-fstack-protector-all'):
    """The functions of `cpcc -O2 -Werror PROTECTOR` on src that call
    __stack_chk_fail (the canary's check), and all its functions."""
    (tmp_path / 'p.cpc').write_text(HDR + src)
    r = subprocess.run([CPCC, '-O2', '-Werror', protector, '-c', '-o', 'p.o', 'p.cpc'],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    dis = subprocess.run(['objdump', '-dr', '--no-show-raw-insn', str(tmp_path / 'p.o')],
                         capture_output=True, text=True, check=True).stdout
    fns = {m.group(1): m.group(2) for m in
           re.finditer(r'^[0-9a-f]+ <([\w.]+)>:\n((?:.+\n)*)', dis, re.M)}
    return {f for f, code in fns.items() if '__stack_chk_fail' in code}, set(fns)


def test_the_functions_around_a_body_without_stack_objects_have_no_canary(tmp_path):
    guarded, fns = guarded_functions(
        tmp_path, 'cps int g(int x) { cpc_yield(); return x + 1; }\n'
        'cps int f(int a) { int x = g(a); return x + g(x); }\n')
    assert {'f__cps', 'f.bounce', 'f.resume.1', 'f.resume.2'} <= fns, fns
    assert not {f for f in guarded if f.startswith(('f__', 'g__', 'f.', 'g.'))}, guarded


def test_every_function_holding_the_code_of_a_body_with_an_array_keeps_its_canary(tmp_path):
    # b's block holds no cps call: it stays in the frame of the C functions
    # that run this part of the body (the entry, wherever gcc put a copy of
    # the body); the deferred path (the copy of the arguments, and the
    # bounce, which calls the entry) has no canary
    guarded, fns = guarded_functions(
        tmp_path, 'extern void fill(char *, int);\n'
        'cps int g(int x) { cpc_yield(); return x + 1; }\n'
        'cps int f(int a) {\n'
        '    int s = 0; if (a) { char b[32]; fill(b, a); s = b[a & 31]; }\n'
        '    int x = g(s); return x + g(x);\n}\n')
    holding = {f for f in fns if f.startswith('f') and not f.startswith('f.defer')
               and f not in ('fill',)}
    assert holding >= {'f__cps', 'f.bounce'}, fns
    # (a function calling the out-of-line body holds no code of it)
    holding = {f for f in holding if 'f.body' not in f or f == 'f.body'} - {'f.bounce'}
    assert holding <= guarded, (holding - guarded)
    assert 'f.defer' not in guarded and 'f.bounce' not in guarded


def test_a_parameter_declared_as_an_array_is_a_pointer():
    assert not holds('return g(b[0]);', 'int n, int b[n]')
    assert not holds('return g(b[0]);', 'int b[4]')


@pytest.mark.parametrize('protector', ['-fstack-protector-all', '-fstack-protector-explicit'])
def test_a_function_asking_for_a_canary_keeps_it_everywhere(tmp_path, protector):
    # (and without a conflict of attributes, which gcc warns about)
    guarded, fns = guarded_functions(
        tmp_path, 'cps int g(int x) { cpc_yield(); return x + 1; }\n'
        '__attribute__((stack_protect)) cps int f(int a) { int x = g(a); return x + g(x); }\n',
        protector)
    assert {'f__cps', 'f.bounce', 'f.resume.1', 'f.resume.2', 'f.defer'} <= guarded, guarded
