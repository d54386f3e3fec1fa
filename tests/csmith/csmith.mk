# tests/csmith/csmith.mk -- differential testing of cpcc against the C compiler on Csmith
# programs (see docs/testing.md).
#
#   make test-csmith      the 200 fixed seeds of tests/csmith/seeds.txt (every seed at -O1,
#                         one in ten also at -O0, one in ten at -O2, one in five each with
#                         ASan, a yield at every cps entry and the environments data-flow
#                         scheme, one in ten with the lifting scheme at -O1) and every
#                         regression program in tests/csmith/regressions/;
#                         fails on any mismatch.
#   make fuzz             a long campaign: FUZZ_SEEDS seeds (default 2000) from FUZZ_FIRST
#                         (default 100000); failures are reduced (creduce, installed by setup-fuzz) into
#                         tests/csmith/regressions/ -- at most FUZZ_REDUCE_MAX of them, one
#                         per failure signature.
#   make test-csmith-harness   checks the transformation alone (no cpcc needed).
#   (test-csmith first runs the unit tests of the transformation and of the driver,
#   test_cpcsmith.py and test_run.py.)
#
# CSMITH_JOBS (default 2) programs run in parallel.  Work files go to build/csmith/; the
# files of failing seeds are kept there, with summary-*.json.

CSMITH_DIR    := $(TOP)/tests/csmith
CSMITH_RUN    := $(PYTHON) $(CSMITH_DIR)/run.py
CSMITH_JOBS   ?= 2
FUZZ_SEEDS    ?= 2000
FUZZ_FIRST    ?= 100000
FUZZ_REDUCE_MAX ?= 6

test-csmith: setup-test runtime translator
	@$(PYTHON) -m pytest -q -p no:cacheprovider $(CSMITH_DIR)/test_cpcsmith.py \
	    $(CSMITH_DIR)/test_run.py
	@$(CSMITH_RUN) test --seed-file $(CSMITH_DIR)/seeds.txt -j $(CSMITH_JOBS) \
	    --workdir $(BUILD)/csmith

test-csmith-harness: setup-test
	@$(CSMITH_RUN) harness --seed-file $(CSMITH_DIR)/seeds.txt -j $(CSMITH_JOBS) \
	    --workdir $(BUILD)/csmith-harness

fuzz: setup-fuzz runtime translator
	@$(CSMITH_RUN) fuzz --seeds $(FUZZ_FIRST)-$$(( $(FUZZ_FIRST) + $(FUZZ_SEEDS) - 1 )) \
	    -j $(CSMITH_JOBS) -q --reduce-max $(FUZZ_REDUCE_MAX) --workdir $(BUILD)/fuzz

TEST_SUITES += test-csmith
.PHONY: test-csmith test-csmith-harness fuzz
