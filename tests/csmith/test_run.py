"""Unit tests of the differential driver's build matrix (tests/csmith/run.py).

Run by `make test-csmith` before the differential run.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402


def test_every_variant_is_built_for_some_seed_of_ten():
    levels = {lv for seed in range(10) for lv in run.opt_levels(seed)}
    assert levels == {"-O0", "-O1", "-O2", "-O1+asan", "-O1+yield", "-O1+env", "-O1+lift"}


def test_every_seed_is_built_at_O1_with_the_default_scheme():
    for seed in range(100):
        assert run.opt_levels(seed)[0] == "-O1"


def test_env_level_selects_the_environments_scheme_for_cpcc_only():
    assert run.cpcc_flags("-O1+env") == ["-O1", "--dataflow=environments"]
    # the generated C is compiled again with the C compiler's flags alone
    assert run.level_flags("-O1+env") == ["-O1"]
    assert "--dataflow=environments" not in run.cpcc_flags("-O1+yield")
    assert run.cpcc_flags("-O1+asan") == run.level_flags("-O1+asan")


def test_lift_level_selects_the_lifting_scheme_for_cpcc_only():
    # (cpcc's default from -O1 on is frame-resident variables)
    assert run.cpcc_flags("-O1+lift") == ["-O1", "--dataflow=lifting"]
    assert run.level_flags("-O1+lift") == ["-O1"]
    assert "--dataflow=lifting" not in run.cpcc_flags("-O1")
