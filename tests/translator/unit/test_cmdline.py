"""cmdline.py: cpcc's command line read into Options (no process runs here;
test_driver.py runs cpcc on the same options end to end)."""
import pytest

from cpc import cmdline


def parse(*words):
    return cmdline.parse_args(list(words))


def test_include_directory_reaches_the_c_compiler_and_the_front_end():
    o = parse('-I', 'inc', 'a.cpc')
    assert o.flags == ['-I', 'inc'] and o.fe_flags == ['-I', 'inc']
    assert o.sources == [('a.cpc', 'cpc', None)]


def test_long_spelling_with_equals_is_its_short_option():
    o = parse('--include-directory=inc', '--output=prog', 'a.cpc')
    assert o.fe_flags == ['-I', 'inc'] and o.output == 'prog'


def test_library_directory_goes_to_the_link_only():
    o = parse('a.cpc', '-L', 'lib', '-lm')
    assert o.flags == [] and o.link_flags == ['-L', 'lib', '-l', 'm']


def test_library_keeps_its_place_among_the_inputs():
    o = parse('a.o', '-lm', 'b.o')
    assert o.link_seq == [('src', 0), ('flag', '-l'), ('flag', 'm'), ('src', 1)]


def test_runtime_library_is_not_added_twice():
    assert parse('a.cpc', '-lcpc').link_flags == []


def test_language_applies_to_the_inputs_that_follow_it():
    o = parse('-x', 'cpc', 'a.c', '-x', 'none', 'b.c', 'c.o')
    assert o.sources == [('a.c', 'cpc', None), ('b.c', 'c', None), ('c.o', 'obj', None)]


@pytest.mark.parametrize('flags,scheme', [
    ([], 'lifting'), (['-O0'], 'lifting'), (['-Og'], 'lifting'), (['-O1'], 'frame'),
    (['-O2'], 'frame'), (['-Os'], 'frame'), (['-O3', '-O0'], 'lifting'),
    (['-O0', '-O2'], 'frame')])
def test_default_dataflow_follows_the_last_optimisation_level(flags, scheme):
    assert parse(*flags, 'a.cpc').dataflow == scheme


def test_explicit_dataflow_wins_over_the_optimisation_level():
    assert parse('-O2', '--dataflow=lifting', 'a.cpc').dataflow == 'lifting'
    assert parse('--dataflow=frame', '-O0', 'a.cpc').dataflow == 'frame'


def test_unknown_dataflow_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        parse('--dataflow=registers', 'a.cpc')
    assert e.value.code == 1
    assert capsys.readouterr().err == \
        'cpcc: error: --dataflow must be lifting, frame or environments\n'


def test_missing_argument_is_a_usage_error(capsys):
    with pytest.raises(SystemExit):
        parse('a.cpc', '-o')
    assert capsys.readouterr().err == "cpcc: error: missing argument to '-o'\n"


def test_c_compiler_naming_cpcc_is_cc(monkeypatch):
    monkeypatch.delenv('CPCC_CC', raising=False)
    monkeypatch.setenv('CC', 'cpcc')
    assert cmdline.c_compiler() == ['cc']
    monkeypatch.setenv('CC', 'gcc -m64')
    assert cmdline.c_compiler() == ['gcc', '-m64']
