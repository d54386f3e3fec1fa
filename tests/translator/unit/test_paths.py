"""paths: where cpcc finds the runtime's headers and libraries (run from a
checkout here)."""

import os
from cpc import paths
import re


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


TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))


def test_a_checkout_uses_its_own_headers_and_libraries():
    assert (paths.CHECKOUT, paths.INCLUDE_DIR, paths.LIB_DIR) == (
        TOP, os.path.join(TOP, 'runtime', 'include'), os.path.join(TOP, 'build', 'runtime'))


def test_the_version_is_runtime_mk_s():
    with open(os.path.join(TOP, 'runtime', 'runtime.mk')) as f:
        want = re.search(r'^CPC_VERSION\s*:=\s*(\S+)', f.read(), re.M).group(1)
    assert paths.checkout_version() == want == paths.VERSION
