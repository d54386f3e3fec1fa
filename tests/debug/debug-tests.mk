# tests/debug/debug-tests.mk -- `make test-debug`, part of `make test`:
# gdb in batch mode on CPC programs (line tables of the generated C, and
# the gdb extension tools/gdb/cpc-gdb.py with its package cpcgdb/), and the
# package's pure modules without gdb (test_decode.py, test_bp_table.py).
# Builds into build/tests/debug.

test-debug: setup-test runtime lib
	@cd $(TOP) && $(PYTHON) -m pytest -q -p no:cacheprovider tests/debug

TEST_SUITES += test-debug

.PHONY: test-debug
