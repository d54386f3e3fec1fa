# tests/translator: unit tests of the translator's modules (pytest), then the CPC programs of
# programs/ at -O0 and -O2 (generated C compiled with -Werror) and diagnostics/ (run_programs.py).
TEST_SUITES += test-translator

test-translator: setup-test runtime translator-native
	@cd $(TOP) && PYTHONPATH=$(TOP)/translator $(PYTHON) -m pytest -q -p no:cacheprovider tests/translator/unit
	@$(PYTHON) $(TOP)/tests/translator/run_programs.py

.PHONY: test-translator

# The corpus of C programs (tests/translator/corpus): each built natively and by cpcc and
# compared.  `make test` runs a fast subset, each program in one variant in turn; the whole
# matrix (plain/yield x -O0/-O2 x lifting/frame/environments x packed/aligned) runs in `make fuzz`.
CORPUS_RUN := $(PYTHON) $(TOP)/tests/translator/corpus/run_corpus.py
CORPUS_JOBS ?= 2
TEST_SUITES += test-corpus

test-corpus: setup-test runtime
	@$(CORPUS_RUN) fast -q -j $(CORPUS_JOBS) --workdir $(BUILD)/corpus

fuzz-corpus: setup-test runtime
	@$(CORPUS_RUN) full -q -j $(CORPUS_JOBS) --workdir $(BUILD)/corpus-full

fuzz: fuzz-corpus

.PHONY: test-corpus fuzz-corpus
