# tests/translator: unit tests of the passes (pytest), the corpus of CPC
# programs at -O0 and -O2 (generated C compiled with -Werror), diagnostics.
TEST_SUITES += test-translator

test-translator: setup runtime
	@cd $(TOP) && PYTHONPATH=$(TOP)/translator $(PYTHON) -m pytest -q -p no:cacheprovider tests/translator/unit
	@$(PYTHON) $(TOP)/tests/translator/run_corpus.py

.PHONY: test-translator
