# tests/install/install-tests.mk -- `make test-install`, part of `make test`:
# install into a temporary prefix, build a small project with make, CMake
# and pkg-config, check the exported symbols, uninstall (tests/install/run.sh).

test-install: setup-test runtime lib
	+@MAKE="$(MAKE)" $(TOP)/tests/install/run.sh $(TOP) $(BUILD)/tests/install

TEST_SUITES += test-install

.PHONY: test-install
