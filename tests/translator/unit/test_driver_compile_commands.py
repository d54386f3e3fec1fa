"""cpcc -MJ: one compilation database entry per compiled source."""
import json
import os
import subprocess

CPCC = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'bin', 'cpcc')

PROGRAM = '''#include <cpc/cpc_runtime.h>
cps void f(void) { cpc_yield(); }
'''


def cpcc(tmp_path, *args):
    r = subprocess.run([os.path.abspath(CPCC)] + list(args), cwd=tmp_path,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r


def database(tmp_path, name):
    text = (tmp_path / name).read_text()
    assert text.endswith(',\n')
    return json.loads('[' + text[:-2] + ']')


def test_mj_one_entry_per_source_with_its_output(tmp_path):
    (tmp_path / 'a.cpc').write_text(PROGRAM)
    (tmp_path / 'b.c').write_text('int b(void) { return 1; }\n')
    cpcc(tmp_path, '-O2', '-DX=1', '-I', 'inc', '-MJ', 'db.json', '-c', 'a.cpc', 'b.c')
    db = database(tmp_path, 'db.json')
    assert [(e['file'], e['output']) for e in db] == [('a.cpc', 'a.o'), ('b.c', 'b.o')]
    assert db[0]['directory'] == str(tmp_path)
    assert db[0]['arguments'][:2] == ['cpcc', '-D__CPC_FRONTEND__']
    assert db[0]['arguments'][2].startswith('-I')     # the runtime's headers
    assert db[0]['arguments'][3:] == ['-O2', '-DX=1', '-I', 'inc', '-c', 'a.cpc', '-o', 'a.o']
    assert db[1]['arguments'] == ['cpcc', '-O2', '-DX=1', '-I', 'inc', '-c', 'b.c', '-o', 'b.o']


def test_mj_joined_form_appends(tmp_path):
    (tmp_path / 'a.cpc').write_text(PROGRAM)
    cpcc(tmp_path, '-MJdb.json', '-c', 'a.cpc', '-o', 'x.o')
    cpcc(tmp_path, '-MJdb.json', '-S', 'a.cpc')
    db = database(tmp_path, 'db.json')
    assert [e['arguments'][-4:] for e in db] == [['-c', 'a.cpc', '-o', 'x.o'],
                                                ['-S', 'a.cpc', '-o', 'a.s']]


def test_mj_entry_of_a_cpc_file_is_a_command_cpcc_runs(tmp_path):
    (tmp_path / 'a.cpc').write_text(PROGRAM)
    cpcc(tmp_path, '-MJ', 'db.json', '-c', 'a.cpc')
    (tmp_path / 'a.o').unlink()
    args = database(tmp_path, 'db.json')[0]['arguments']
    cpcc(tmp_path, *args[1:])
    assert (tmp_path / 'a.o').exists()


def test_mj_entry_parses_as_c_with_the_front_end_mode(tmp_path):
    import clang.cindex as ci
    from cpc import frontend as fe
    from cpc.libclang import lib
    (tmp_path / 'a.cpc').write_text(PROGRAM + 'int main(void) { cpc_spawn f(); return 0; }\n')
    cpcc(tmp_path, '-MJ', 'db.json', '-c', 'a.cpc')
    args = database(tmp_path, 'db.json')[0]['arguments']
    clang_args = ['-x', 'c'] + [a for a in args[1:] if a not in ('-c', 'a.cpc', '-o', 'a.o')]
    rd = fe.resource_dir()
    lib()
    tu = ci.Index.create().parse(str(tmp_path / 'a.cpc'),
                                 args=clang_args + (['-resource-dir', rd] if rd else []))
    assert [d.spelling for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error] == []
