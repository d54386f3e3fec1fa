# tests/qemu/qemu-tests.mk -- `make test-qemu`: QEMU's coroutine API
# (<cpc/qemu-coroutine.h>, lib/qemu/).  Each tests/qemu/*.cpc program is
# built with bin/cpcc and its output compared with its .expected file, in
# the -O2 and the --cpc-debug builds (and under valgrind when marked), by
# tests/lib/run-cpc-tests.sh.  QEMU's own tests/unit/test-coroutine.c is
# run against the same API by tests/qemu/run-qemu-unit-test.sh (needs a
# QEMU checkout; not part of `make test`).

QEMU_TEST_SRCS := $(sort $(wildcard $(TOP)/tests/qemu/*.cpc))

test-qemu: setup-test runtime lib
	@CPCC="$(LIB_CPCC)" $(TOP)/tests/lib/run-cpc-tests.sh qemu $(BUILD)/tests/qemu $(QEMU_TEST_SRCS)

TEST_SUITES += test-qemu
.PHONY: test-qemu
