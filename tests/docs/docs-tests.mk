# tests/docs/docs-tests.mk -- `make test-docs`, part of `make test`: the
# docs index (docs/README.md) lists every doc and every suite, and what the
# docs show as output is what the commands print (transcripts, docs/abi.md's
# generated C).
TEST_SUITES += test-docs

test-docs: setup-test
	@cd $(TOP) && PYTHONPATH=$(TOP)/translator $(PYTHON) -m pytest -q -p no:cacheprovider tests/docs

.PHONY: test-docs
