"""Each pass of the pipeline on its characteristic cases: the exact text
after it (the pipeline stopped after the pass, `--cpc-stop-after`), or the
exact diagnostics it reports, from expected/PASS/BEHAVIOUR.cpc (see
helpers.py).  And the expected files themselves: an update is never a pass."""
import os

import pytest

from cpc import frontend as fe
from cpc import pipeline
from helpers import (ExpectedUpdated, all_expected_cases, assert_expected, case_id,
                     expected_passes)


@pytest.mark.parametrize('case', all_expected_cases(), ids=case_id)
def test_pass_gives_its_expected_result(case):
    assert_expected(case)


def test_every_stage_of_the_pipeline_and_the_emitter_have_expected_cases():
    assert expected_passes() == sorted(pipeline.stage_names() + ['emit'])


NORMALIZE_IN = 'cps int g(int);\ncps int f(void) { return g(1) + 1; }\n'
NORMALIZE_OUT = 'cps int g(int);\ncps int f(void) { { int cpc_t1 = g(1); return cpc_t1 + 1; } }\n'


def write_case(tmp_path, name, src, out=None, err=None):
    d = tmp_path / name
    d.mkdir()
    (d / 'case.cpc').write_text(src)
    if out is not None:
        (d / 'case.out').write_text(out)
    if err is not None:
        (d / 'case.err').write_text(err)
    return str(d / 'case.cpc')


def test_a_stale_expected_file_fails_and_is_left_as_it_is(tmp_path):
    case = write_case(tmp_path, 'normalize', NORMALIZE_IN, out='stale\n')
    with pytest.raises(AssertionError) as e:
        assert_expected(case, update=False)
    assert not isinstance(e.value, ExpectedUpdated)
    assert (tmp_path / 'normalize' / 'case.out').read_text() == 'stale\n'


def test_updating_a_stale_expected_file_rewrites_it_and_fails(tmp_path):
    case = write_case(tmp_path, 'normalize', NORMALIZE_IN, out='stale\n')
    with pytest.raises(ExpectedUpdated) as e:
        assert_expected(case, update=True)
    assert str(e.value).startswith('expected output updated: ')
    assert (tmp_path / 'normalize' / 'case.out').read_text() == NORMALIZE_OUT
    assert_expected(case, update=False)


def test_updating_a_missing_expected_file_creates_it_and_fails(tmp_path):
    case = write_case(tmp_path, 'normalize', NORMALIZE_IN)
    with pytest.raises(ExpectedUpdated):
        assert_expected(case, update=True)
    assert (tmp_path / 'normalize' / 'case.out').read_text() == NORMALIZE_OUT


def test_a_missing_expected_file_fails_without_update(tmp_path):
    case = write_case(tmp_path, 'normalize', NORMALIZE_IN)
    with pytest.raises(AssertionError, match='no .*case.out'):
        assert_expected(case, update=False)
    assert not (tmp_path / 'normalize' / 'case.out').exists()


def test_updating_an_expected_file_that_holds_passes_and_writes_nothing(tmp_path):
    case = write_case(tmp_path, 'normalize', NORMALIZE_IN, out=NORMALIZE_OUT)
    before = os.stat(tmp_path / 'normalize' / 'case.out').st_mtime_ns
    assert_expected(case, update=True)
    assert os.stat(tmp_path / 'normalize' / 'case.out').st_mtime_ns == before


def test_the_update_flag_comes_from_the_environment(tmp_path, monkeypatch):
    case = write_case(tmp_path, 'normalize', NORMALIZE_IN, out='stale\n')
    monkeypatch.setenv('CPC_UPDATE_EXPECTED', '1')
    with pytest.raises(ExpectedUpdated):
        assert_expected(case)


def test_diagnostics_of_a_pass_are_compared_with_the_err_file(tmp_path):
    case = write_case(tmp_path, 'typecheck', 'cps int f(int x) { return x; }\n'
                      'int (*q)(int) = f;\n', err='t.cpc:3:17: error: stale\n')
    with pytest.raises(ExpectedUpdated):
        assert_expected(case, update=True)
    err = (tmp_path / 'typecheck' / 'case.err').read_text()
    assert err.startswith('t.cpc:3:') and 'mixing cps and native function types' in err, err
    assert_expected(case, update=False)


def test_diagnostics_of_an_earlier_pass_are_not_taken_for_this_ones(tmp_path):
    case = write_case(tmp_path, 'boxing', 'cps int f(int x);\nint f(int x);\n', err='')
    with pytest.raises(fe.Diags) as e:      # (the stage before boxing rejects it)
        assert_expected(case, update=False)
    assert e.value.diags[0].msg.startswith('conflicting declarations of `f`')
