"""native.py: the translator's C helper, found where `make translator` builds
it, absent or disabled without harm (cursors.py lists through the bindings)."""
import os
import subprocess

from cpc import native
from cpc.cursors import _LEAF_KINDS, _UNARY_EXPR_KIND

LEAVES = sorted(_LEAF_KINDS)


def load_with(monkeypatch, env=None, paths=None):
    if env is not None:
        monkeypatch.setenv('CPC_NO_NATIVE', env)
    else:
        monkeypatch.delenv('CPC_NO_NATIVE', raising=False)
    if paths is not None:
        monkeypatch.setattr(native, 'candidates', lambda: paths)
    native.reset()
    try:
        return native.load(LEAVES, _UNARY_EXPR_KIND)
    finally:
        native.reset()


def test_the_helper_is_built_and_loads(monkeypatch):
    # (make translator builds it; the tests run with it)
    assert any(os.path.exists(p) for p in native.candidates())
    assert load_with(monkeypatch) is not None


def test_the_installed_place_comes_before_the_checkout_s_build():
    here, build = native.candidates()
    assert os.path.dirname(here) == os.path.dirname(os.path.abspath(native.__file__))
    assert build.endswith(os.path.join('build', 'translator', native.NAME))


def test_without_the_library_there_is_no_helper(monkeypatch, tmp_path):
    assert load_with(monkeypatch, paths=[str(tmp_path / native.NAME)]) is None


def test_a_library_that_does_not_load_is_no_helper(monkeypatch, tmp_path):
    bad = tmp_path / native.NAME
    bad.write_bytes(b'not a shared object')
    assert load_with(monkeypatch, paths=[str(bad)]) is None


def test_cpc_no_native_leaves_it_unused(monkeypatch):
    assert load_with(monkeypatch, env='1') is None
    assert load_with(monkeypatch, env='0') is not None


def stale_library(tmp_path, abi_line):
    """A library with the helper's functions, as one built from another
    version of the translator would have them."""
    src = tmp_path / 'stale.c'
    src.write_text(abi_line + '\n'
                   'int cf_init(void *h, const int *l, int n, int d) { return 0; }\n'
                   'void *cf_list(void) { return 0; }\n')
    lib = tmp_path / native.NAME
    subprocess.run(['cc', '-shared', '-fPIC', '-o', str(lib), str(src)], check=True)
    return str(lib)


def test_a_library_of_another_version_is_not_used(monkeypatch, tmp_path):
    lib = stale_library(tmp_path, 'const int cf_abi = %d;' % (native.ABI - 1))
    assert load_with(monkeypatch, paths=[lib]) is None


def test_a_library_without_a_version_is_not_used(monkeypatch, tmp_path):
    lib = stale_library(tmp_path, '')
    assert load_with(monkeypatch, paths=[lib]) is None
