"""paths: where cpcc finds the runtime's headers and libraries (run from a
checkout here)."""
import os

from cpc import paths


def test_a_checkout_has_its_headers_in_runtime_include():
    assert paths.INCLUDE_DIR == os.path.join(paths.CHECKOUT, 'runtime', 'include')
    assert os.path.exists(os.path.join(paths.INCLUDE_DIR, 'cpc', 'cpc_runtime.h'))


def test_a_checkout_links_with_its_build_directory():
    assert paths.LIB_DIR == os.path.join(paths.CHECKOUT, 'build', 'runtime')
    assert paths.LINK_DIRS[0] == paths.LIB_DIR
    assert paths.RPATH_FLAGS == ['-Wl,-rpath,' + paths.LIB_DIR]


def test_the_version_is_the_one_runtime_mk_sets():
    with open(os.path.join(paths.CHECKOUT, 'runtime', 'runtime.mk')) as f:
        lines = [ln for ln in f if ln.split(':=')[0].strip() == 'CPC_VERSION']
    assert len(lines) == 1
    assert paths.VERSION == paths.checkout_version() == lines[0].split(':=')[1].strip()
