# `make test`: every test suite.  Each suite has its own fragment and adds
# its target to TEST_SUITES.

TEST_SUITES :=
-include tests/runtime/runtime-tests.mk
-include tests/translator/translator-tests.mk
-include tests/lib/lib-tests.mk
-include examples/examples-tests.mk
-include examples/httpd/httpd.mk
-include tests/csmith/csmith.mk
-include tests/foreign/foreign.mk
-include tests/tools/tools-tests.mk
-include tests/debug/debug-tests.mk
-include embed/embed.mk
-include tests/qemu/qemu-tests.mk
-include tests/install/install-tests.mk
-include tests/faults/faults.mk
-include tests/docs/docs-tests.mk

test: setup-test
	@$(MAKE) --no-print-directory $(TEST_SUITES)
	@echo "make test: all suites passed ($(TEST_SUITES))"

.PHONY: test
