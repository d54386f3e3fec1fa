# tests/tools: tools/cpc-check (CoroCheck) on small C and CPC inputs, each
# output (diagnostics, inference, patch, dot, exit status) compared with
# tests/tools/expected/; `run_tests.py --update` rewrites them.
TEST_SUITES += test-tools

test-tools: setup-test
	@$(PYTHON) $(TOP)/tests/tools/run_tests.py

.PHONY: test-tools
