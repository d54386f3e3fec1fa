"""multisource: how a program's CMakeLists.txt is read."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import multisource  # noqa: E402


def settings_of(tmp_path, cmake, files=('a.c', 'b.c', 'in.txt')):
    for name in files:
        (tmp_path / name).write_text('')
    (tmp_path / 'CMakeLists.txt').write_text(cmake)
    return multisource.settings(str(tmp_path))


def test_sources_flags_arguments_and_standard_input(tmp_path):
    sources, flags, argv, stdin = settings_of(tmp_path, (
        'list(APPEND CPPFLAGS -DX=1 -I. -Wno-foo)\n'
        'set(RUN_OPTIONS -v < in.txt)\n'
        'llvm_multisource(prog b.c)\n'))
    assert sources == ['b.c']
    assert flags == ['-DX=1', '-I.']
    assert (argv, stdin) == (['-v'], 'in.txt')


def test_the_small_problem_size_branch_is_taken(tmp_path):
    _, _, argv, _ = settings_of(tmp_path, (
        'if(SMALL_PROBLEM_SIZE)\n  set(N 10)\nelse()\n  set(N 1000)\nendif()\n'
        'set(RUN_OPTIONS ${N})\n'))
    assert argv == ['10']


def test_the_c_standard_property_selects_gnu_dialect(tmp_path):
    # Burg is C90: `restrict` is one of its identifiers
    _, flags, _, _ = settings_of(tmp_path, (
        'llvm_multisource(burg)\nset_property(TARGET burg PROPERTY C_STANDARD 90)\n'))
    assert flags == ['-std=gnu89']


def test_a_program_whose_data_file_is_missing_is_skipped(tmp_path):
    assert settings_of(tmp_path, 'llvm_test_data(prog big.dat)\n') is None
