"""paths.py: where the checkout's headers and libraries are, and its
version."""
import os
import re

from cpc import paths

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))


def test_a_checkout_uses_its_own_headers_and_libraries():
    assert (paths.CHECKOUT, paths.INCLUDE_DIR, paths.LIB_DIR) == (
        TOP, os.path.join(TOP, 'runtime', 'include'), os.path.join(TOP, 'build', 'runtime'))


def test_the_version_is_runtime_mk_s():
    with open(os.path.join(TOP, 'runtime', 'runtime.mk')) as f:
        want = re.search(r'^CPC_VERSION\s*:=\s*(\S+)', f.read(), re.M).group(1)
    assert paths.checkout_version() == want == paths.VERSION
