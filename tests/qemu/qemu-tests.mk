# tests/qemu/qemu-tests.mk -- `make test-qemu`: QEMU's coroutine API
# (<cpc/qemu-coroutine.h>, lib/qemu/).  Each tests/qemu/*.cpc program is
# built with bin/cpcc and its output compared with its .expected file, in
# the -O2 and the --cpc-debug builds (and under valgrind when marked), by
# tests/lib/run-cpc-tests.sh.  QEMU's own tests/unit/test-coroutine.c is
# run against the same API by tests/qemu/run-qemu-unit-test.sh (needs a
# QEMU checkout; not part of `make test`).
#
# The QEMU 1.6 backend lib/qemu/backend/coroutine-cpc.c, which only
# tests/qemu-cpc/build.sh builds into QEMU, is compiled unchanged here too:
# tests/qemu-cpc/backend/backend.cpc drives it through a generic layer
# written after QEMU's (qemu-coroutine.cpc there) and stand-in QEMU
# headers, in the same -O2 and --cpc-debug -O0 builds.  It links the
# runtime alone, without lib/'s objects: the generic layer defines
# qemu_coroutine_create, enter and yield itself.
#
# tests/qemu-cpc/test_cc_wrapper.py checks build.sh's compiler wrapper: the
# records that parallel compilers append to one file stay whole.

QEMU_TEST_SRCS := $(sort $(wildcard $(TOP)/tests/qemu/*.cpc))
QEMU_BACKEND_EXTRA_SRCS := $(TOP)/tests/qemu-cpc/backend/qemu-coroutine.cpc \
    $(TOP)/lib/qemu/backend/coroutine-cpc.c

test-qemu: setup-test runtime lib
	@CPCC="$(LIB_CPCC)" $(TOP)/tests/lib/run-cpc-tests.sh qemu $(BUILD)/tests/qemu $(QEMU_TEST_SRCS)
	@CPCC="$(LIB_CPCC)" EXTRA_SRCS="$(QEMU_BACKEND_EXTRA_SRCS)" \
	    $(TOP)/tests/lib/run-cpc-tests.sh qemu-backend $(BUILD)/tests/qemu-backend \
	    $(TOP)/tests/qemu-cpc/backend/backend.cpc
	@$(PYTHON) -m pytest -q -p no:cacheprovider $(TOP)/tests/qemu-cpc/test_cc_wrapper.py

TEST_SUITES += test-qemu
.PHONY: test-qemu
